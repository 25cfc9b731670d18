/**
 * For any sequence of lead commands run through the real server (PGlite): the projected lead
 * (rm_leads, rm_lead_notes) equals the fold of the lead's events, and the change history lists
 * every field change exactly once (checked against a field-by-field diff of consecutive states,
 * both from the core and from wsObtenerHistorialCambios).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  evolveLead,
  foldLead,
  historyFromEvents,
  LEAD_HISTORY_FIELDS,
  type Lead,
  type LeadEnvelope,
  type LeadEvent,
  type LeadFieldValue,
  type LeadNote,
} from '../../src/core/lead';
import { createApp } from '../../src/server/app';
import { openRuntime, seedDemoIfEmpty, type Runtime } from '../../src/server/runtime';
import { client, login } from '../integration/support/http';

type Client = ReturnType<typeof client>;

const nombres = ['Ana', 'Luis', 'María José', 'Íñigo'];
const fieldValues = {
  nombre: fc.constantFrom(...nombres),
  apellidos: fc.constantFrom('', 'Pérez', 'de la Torre'),
  email: fc.constantFrom(null, 'a@example.com', 'b@correo.mx'),
  telefono: fc.constantFrom(null, '55 1234 5678', '+52 33 9876 5432'),
  celular: fc.constantFrom(null, '81 1111 2222'),
  notas: fc.constantFrom('', 'Busca 2 recámaras', 'Crédito Infonavit'),
  medioContacto: fc.constantFrom(null, 'Showroom', 'WhatsApp', 'Referido'),
  tipo: fc.constantFrom(null, 'Comprador', 'Inversionista'),
  status: fc.constantFrom('nuevo', 'contactado', 'visita', 'cerrado'),
};

const changesArb = fc.record(fieldValues, { requiredKeys: [] });

type Command =
  | { kind: 'update'; changes: Record<string, unknown>; stale: boolean }
  | { kind: 'assign'; to: 'asesor' | 'asesor2' | 'gerente' }
  | { kind: 'addNote'; nota: string }
  | { kind: 'deleteNote'; index: number }
  | { kind: 'delete' }
  | { kind: 'merge'; changes: Record<string, unknown> };

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      changes: changesArb,
      stale: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('assign' as const),
      to: fc.constantFrom('asesor' as const, 'asesor2' as const, 'gerente' as const),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('addNote' as const),
      nota: fc.constantFrom('Llamar', 'Envió INE', 'Visita el sábado'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('deleteNote' as const), index: fc.nat(4) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'delete' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('merge' as const), changes: changesArb }) },
);

/** The history a lead's states imply: every field that differs between consecutive states. */
function expectedHistory(events: LeadEvent[]) {
  const out: { campo: string; anterior: LeadFieldValue; nuevo: LeadFieldValue }[] = [];
  let before: Lead | null = null;
  for (const event of events) {
    const after = evolveLead(before, event);
    for (const campo of LEAD_HISTORY_FIELDS) {
      const anterior = before ? before[campo] : null;
      const nuevo = after ? after[campo] : null;
      const empty = (v: LeadFieldValue) => v === null || v === '' || v === false;
      if (before === null ? !empty(nuevo) : anterior !== nuevo)
        out.push({ campo, anterior, nuevo });
    }
    before = after;
  }
  return out;
}

describe('lead projection and history properties (real server on PGlite)', () => {
  let rt: Runtime;
  let app: ReturnType<typeof createApp>;
  let gerente: Client;
  let corp: string;
  const users: Record<string, string> = {};
  let run = 0;

  beforeAll(async () => {
    rt = await openRuntime({ dataDir: 'memory://' });
    await seedDemoIfEmpty(rt.deps.store);
    app = createApp(rt.deps);
    gerente = client(app, await login(app, 'gerente@vitrina.demo'));
    for (const name of ['asesor', 'asesor2', 'gerente']) {
      const c = client(app, await login(app, `${name}@vitrina.demo`));
      users[name] = (await c.get('/api/auth/session')).json.id;
    }
    corp = (await gerente.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
  }, 120_000);
  afterAll(async () => {
    await rt.close();
  });

  async function checkLead(id: string) {
    const stored = await rt.deps.store.readStream(`lead:${corp}:${id}`);
    const events = stored.map((e) => ({ type: e.type, data: e.data }) as LeadEvent);
    const fold = foldLead(events);
    const row = await rt.deps.db.query<{ doc: Lead }>('SELECT doc FROM rm_leads WHERE id = $1', [
      id,
    ]);
    expect(row.rows[0]?.doc).toEqual(fold.lead);
    const notes = await rt.deps.db.query<{ doc: LeadNote }>(
      'SELECT doc FROM rm_lead_notes WHERE lead_id = $1 ORDER BY key',
      [id],
    );
    const foldNotes = Object.values(fold.notes).sort((a, b) => (a.key < b.key ? -1 : 1));
    expect(notes.rows.map((r) => r.doc)).toEqual(foldNotes);

    const envelopes: LeadEnvelope[] = stored.map((e) => ({
      ...({ type: e.type, data: e.data } as LeadEvent),
      actorId: e.actorId,
      occurredAt: e.occurredAt,
    }));
    const expected = expectedHistory(events);
    const fromCore = historyFromEvents(envelopes).map(({ campo, anterior, nuevo }) => ({
      campo,
      anterior,
      nuevo,
    }));
    expect(fromCore).toEqual(expected);
    const api = await gerente.get(
      `/api/wsObtenerHistorialCambios?idCorporativo=${corp}&idLead=${id}`,
    );
    const fromApi = (
      api.json as { campo: string; anterior: LeadFieldValue; nuevo: LeadFieldValue }[]
    )
      .map(({ campo, anterior, nuevo }) => ({ campo, anterior, nuevo }))
      .reverse();
    expect(fromApi).toEqual(expected);
  }

  it('projected lead = fold of its events; history = every field change exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(commandArb, { maxLength: 10 }), async (commands) => {
        run += 1;
        const url = `/api/corporativos/${corp}/leads`;
        const created = await gerente.post(url, {
          nombre: 'Prop',
          email: `prop${run}@example.com`,
          medioContacto: 'Showroom',
        });
        expect(created.status).toBe(201);
        const first = created.json as Lead;
        const touched = [first.id];
        const noteKeys: string[] = [];
        for (const command of commands) {
          const current = (await gerente.get(`${url}/${first.id}`)).json as Lead;
          let res: { status: number };
          switch (command.kind) {
            case 'update':
              res = await gerente.put(`${url}/${first.id}`, {
                ...command.changes,
                leadAnterior: command.stale ? first : current,
              });
              break;
            case 'assign':
              res = await gerente.post(`${url}/${first.id}/asignar`, {
                idVendedor: users[command.to],
              });
              break;
            case 'addNote': {
              const added = await gerente.post(`${url}/${first.id}/notas`, { nota: command.nota });
              if (added.status === 201) noteKeys.push(added.json.key);
              res = added;
              break;
            }
            case 'deleteNote':
              res = await gerente.del(
                `${url}/${first.id}/notas/${noteKeys[command.index] ?? 'missing'}`,
              );
              break;
            case 'delete':
              res = await gerente.del(`${url}/${first.id}`);
              break;
            case 'merge': {
              const other = await gerente.post(url, {
                ...command.changes,
                email: null,
                telefono: null,
                celular: null,
                nombre: (command.changes.nombre as string | undefined) ?? 'Otro',
              });
              if (other.status === 201) {
                touched.push(other.json.id);
                await gerente.post(`${url}/${other.json.id}/notas`, { nota: 'nota del duplicado' });
              }
              res = await gerente.post(`${url}/${first.id}/merge`, {
                idLeadDuplicado: other.json?.id ?? 'x',
              });
              break;
            }
          }
          expect(res.status).toBeLessThan(500);
        }
        for (const id of touched) await checkLead(id);
      }),
      { numRuns: 40 },
    );
  }, 180_000);
});
