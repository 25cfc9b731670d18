/**
 * What produces notifications (issue 15 point 3), end to end on both backends: the consumer
 * `notifications` (a lead assigned and reassigned to you by someone else, your hold expired) and
 * the hold's warning timer (2 h before its end), each once; a hold released by hand before the
 * warning gets none. The consumer runs in the background work; timers are fired by hand on the
 * injected clock.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Lead } from '../../src/core/lead';
import type { Unit } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { signedIn, type client } from './support/http';
import { caughtUp, eventually } from './support/consumers';

type Client = ReturnType<typeof client>;
const HOUR = 3_600_000;

describeBackends('notification producers', (backend: Backend) => {
  let now = new Date('2026-11-23T15:00:00.000Z');
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let corp: string;
  let available: Unit[] = [];
  const ids: Record<string, string> = {};
  const db = () => rt.deps.db;

  const inbox = async (email: string, kind: string) =>
    (
      await db().query<{ doc: { tipo: string; params: Record<string, unknown>; link: string } }>(
        `SELECT n.doc FROM rm_notification_inbox i JOIN rm_notifications n ON n.id = i.notification_id
          WHERE i.user_id = $1 AND n.tipo = $2 ORDER BY n.fecha_alta`,
        [ids[email], kind],
      )
    ).rows.map((r) => r.doc);
  /** The consumer runs in the background: until it has read every committed event. */
  const settle = async () => {
    rt.deps.work.wake();
    await eventually(() => caughtUp(db(), 'notifications'));
  };
  let seq = 0;
  const newLead = async (who: Client) => {
    seq += 1;
    const res = await who.post(`/api/corporativos/${corp}/leads`, {
      nombre: `Ana ${seq}`,
      apellidos: 'Notificada',
      email: `notificada${seq}@example.com`,
      telefono: `55 3000 ${String(1000 + seq)}`,
      medioContacto: 'Showroom',
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json as Lead;
  };

  beforeAll(async () => {
    rt = await openSeeded(backend, { clock: () => now });
    app = createApp(rt.deps);
    corp = (
      await db().query<{ id: string }>(
        "SELECT id FROM rm_corporates WHERE slug = 'grupo-horizonte'",
      )
    ).rows[0]!.id;
    available = (
      await db().query<{ doc: Unit }>(
        "SELECT doc FROM rm_units WHERE corporate_id = $1 AND doc->>'status' = 'Disponible' ORDER BY id",
        [corp],
      )
    ).rows.map((r) => r.doc);
    rt.deps.work.start();
    // The consumer starts at the end of the log: let it take its place before anything happens.
    await eventually(
      async () =>
        (await db().query("SELECT 1 FROM consumers WHERE name = 'notifications'")).rows.length > 0,
    );
  }, 120_000);

  afterAll(async () => {
    await rt?.dispose();
  });

  it('a lead assigned by a manager, then reassigned: each new adviser is told once; assigning to oneself tells nobody', async () => {
    const gerente = await signedIn(app, 'gerente@vitrina.demo', ids);
    const asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    await signedIn(app, 'asesor2@vitrina.demo', ids);
    const lead = await newLead(gerente);
    const assign = (who: Client, to: string) =>
      who.post(`/api/corporativos/${corp}/leads/${lead.id}/asignar`, { idVendedor: ids[to] });
    expect((await assign(gerente, 'asesor@vitrina.demo')).status).toBe(200);
    expect((await assign(gerente, 'asesor2@vitrina.demo')).status).toBe(200);
    const own = await newLead(asesor);
    // Their own lead, already theirs: nothing to tell.
    expect(
      (
        await asesor.post(`/api/corporativos/${corp}/leads/${own.id}/asignar`, {
          idVendedor: ids['asesor@vitrina.demo'],
        })
      ).status,
    ).toBe(200);
    await settle();
    const assigned = await inbox('asesor@vitrina.demo', 'lead.asignado');
    expect(assigned.filter((n) => n.params.lead === `${lead.nombre} Notificada`)).toEqual([
      expect.objectContaining({ link: `/corporativos/grupo-horizonte/clientes/${lead.id}` }),
    ]);
    expect(assigned.some((n) => n.params.lead === `${own.nombre} Notificada`)).toBe(false);
    const reassigned = await inbox('asesor2@vitrina.demo', 'lead.reasignado');
    expect(reassigned.filter((n) => n.params.lead === `${lead.nombre} Notificada`)).toHaveLength(1);
  });

  it('a hold: warned 2 h before its end, then told it expired, each once; a hold released by hand gets neither', async () => {
    const asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    const lead = await newLead(asesor);
    const [unit, other] = [available[0]!, available[1]!];
    const hold = (u: Unit) =>
      asesor.post(`/api/corporativos/${corp}/unidades/${u.id}/apartado`, {
        idLead: lead.id,
        statusAnterior: 'Disponible',
      });
    expect((await hold(unit)).status).toBe(200);
    expect((await hold(other)).status).toBe(200);
    expect(
      (await asesor.del(`/api/corporativos/${corp}/unidades/${other.id}/apartado`)).status,
    ).toBe(200);
    now = new Date(now.getTime() + 46 * HOUR - 60_000);
    await rt.deps.work.timers.fireDue();
    expect(await inbox('asesor@vitrina.demo', 'apartado.por-vencer')).toEqual([]);
    now = new Date(now.getTime() + 60_000);
    await rt.deps.work.timers.fireDue();
    // The background loop may hold the timer at this moment: wait for its commit, not for ours.
    await eventually(
      async () => (await inbox('asesor@vitrina.demo', 'apartado.por-vencer')).length > 0,
    );
    const warned = await inbox('asesor@vitrina.demo', 'apartado.por-vencer');
    expect(warned).toEqual([
      expect.objectContaining({
        params: { unidad: unit.nombre, horas: 2 },
        link: expect.stringContaining(`disponibilidad?unidad=${unit.id}`),
      }),
    ]);
    now = new Date(now.getTime() + 2 * HOUR);
    await rt.deps.work.timers.fireDue();
    // The expiry may be fired by the background loop instead: wait for the release, then the
    // consumer that turns it into the notice.
    await eventually(async () => {
      await settle();
      return (await inbox('asesor@vitrina.demo', 'apartado.vencido')).length > 0;
    });
    const expired = await inbox('asesor@vitrina.demo', 'apartado.vencido');
    expect(expired).toEqual([expect.objectContaining({ params: { unidad: unit.nombre } })]);
    await rt.deps.work.timers.fireDue();
    await settle();
    expect(await inbox('asesor@vitrina.demo', 'apartado.vencido')).toHaveLength(1);
    expect(await inbox('asesor@vitrina.demo', 'apartado.por-vencer')).toHaveLength(1);
  });
});
