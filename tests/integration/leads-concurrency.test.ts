import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import type { Lead } from '../../src/core/lead';
import { leadStream } from '../../src/server/leads/streams';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { signedIn, type client } from './support/http';

type Client = ReturnType<typeof client>;

/**
 * Writers of one lead queue on its stream (the command handler locks it): writes that do not
 * depend on what the user saw all land, and of edits made from the same screen exactly one does.
 */
describeBackends('leads under concurrent writes', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let asesor: Client;
  let gerente: Client;
  let corp: string;
  const ids: Record<string, string> = {};

  const leadsUrl = () => `/api/corporativos/${corp}/leads`;
  const newLead = async (email: string) => {
    const res = await asesor.post(leadsUrl(), { nombre: 'Concurrencia', email });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json as Lead;
  };
  const streamVersion = (lead: Lead) => rt.deps.store.streamVersion(leadStream(corp, lead.id));

  beforeAll(async () => {
    rt = await openSeeded(backend);
    const app = createApp(rt.deps);
    asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    gerente = await signedIn(app, 'gerente@vitrina.demo', ids);
    corp = (await gerente.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
  });
  afterAll(async () => {
    await rt.dispose();
  });

  it('stores 100 simultaneous notes on one lead: 100 × 201, 100 more events', async () => {
    const lead = await newLead('notas-simultaneas@example.com');
    const before = await streamVersion(lead);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        (i % 2 === 0 ? asesor : gerente).post(`${leadsUrl()}/${lead.id}/notas`, {
          nota: `Nota ${i}`,
        }),
      ),
    );
    expect(results.filter((r) => r.status !== 201).map((r) => r.json)).toEqual([]);
    expect(await streamVersion(lead)).toBe(before + 100);
    const notes = (await asesor.get(`${leadsUrl()}/${lead.id}/notas`)).json as { nota: string }[];
    expect(notes.map((n) => n.nota).sort()).toEqual(
      Array.from({ length: 100 }, (_, i) => `Nota ${i}`).sort(),
    );
  });

  it('of 20 simultaneous edits from the same screen, one is saved and 19 get 409 with it', async () => {
    const lead = await newLead('ediciones-simultaneas@example.com');
    const before = await streamVersion(lead);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? asesor : gerente).put(`${leadsUrl()}/${lead.id}`, {
          nombre: `Edición ${i}`,
          leadAnterior: lead,
        }),
      ),
    );
    const saved = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 409);
    expect(saved).toHaveLength(1);
    expect(refused).toHaveLength(19);
    const winner = saved[0]!.json as Lead;
    expect(winner.nombre).toMatch(/^Edición \d+$/);
    for (const r of refused) {
      expect(r.json[0].errorCode).toBe('CONFLICT');
      expect(r.json[0].lead).toEqual(winner);
    }
    expect(await streamVersion(lead)).toBe(before + 1);
    expect((await asesor.get(`${leadsUrl()}/${lead.id}`)).json).toEqual(winner);
  });
});
