/**
 * Unit holds ("apartado", issue 12 point 6): an adviser holds an available unit for one of their
 * leads for the corporate's hold time; the unit shows 'Apartado' with who holds it and for whom;
 * a timer releases it at its time exactly once (by 'Sistema'); a sale clears it; a release by
 * hand is idempotent. Time is the injected clock, and the timer worker's pass is driven by hand.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Lead } from '../../src/core/lead';
import type { Unit } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { streams } from '../../src/server/catalogue/events';
import { unitHoldTimerKey } from '../../src/server/inventory/hold-expiry';
import { getTimer } from '../../src/server/store/timers';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import type { client } from './support/http';
import { signedIn } from './support/http';

type Client = ReturnType<typeof client>;
const HOUR = 3_600_000;

describeBackends('unit holds', (backend: Backend) => {
  let now = new Date('2026-11-22T10:00:00.000Z');
  const advance = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let asesor: Client;
  let asesor2: Client;
  let gerente: Client;
  let admin: Client;
  let corp: string;
  let pacificoCorp: string;
  const ids: Record<string, string> = {};
  /** Available units of the corporate, each test takes its own. */
  let available: Unit[] = [];
  let pacificoUnit: Unit;
  const takeUnit = () => available.shift()!;

  const db = () => rt.deps.db;
  const eventCount = async () =>
    (await db().query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
  const unitEvents = async (unitId: string, c = corp) =>
    rt.deps.store.readStream(streams.unit(c, unitId));
  const holdUrl = (unitId: string, c = corp) =>
    `/api/corporativos/${c}/unidades/${unitId}/apartado`;
  const unitDoc = async (unitId: string) =>
    (await db().query<{ doc: Unit }>('SELECT doc FROM rm_units WHERE id = $1', [unitId])).rows[0]!
      .doc;
  const fireDue = () => rt.deps.work.timers.fireDue();

  let seq = 0;
  const newLead = async (who: Client) => {
    seq += 1;
    const res = await who.post(`/api/corporativos/${corp}/leads`, {
      nombre: `Cliente ${seq}`,
      apellidos: 'Apartado',
      email: `apartado${seq}@example.com`,
      telefono: `55 2000 ${String(1000 + seq)}`,
      medioContacto: 'Showroom',
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json as Lead;
  };

  /** Sessions age with the injected clock: each test signs in afresh. */
  const signInAll = async () => {
    const sign = (email: string) => signedIn(app, email, ids);
    asesor = await sign('asesor@vitrina.demo');
    asesor2 = await sign('asesor2@vitrina.demo');
    gerente = await sign('gerente@vitrina.demo');
    admin = await sign('admin@vitrina.demo');
  };

  beforeEach(() => signInAll());

  beforeAll(async () => {
    rt = await openSeeded(backend, { clock: () => now });
    app = createApp(rt.deps);
    const corporates = await db().query<{ id: string; slug: string }>(
      'SELECT id, slug FROM rm_corporates',
    );
    corp = corporates.rows.find((r) => r.slug === 'grupo-horizonte')!.id;
    pacificoCorp = corporates.rows.find((r) => r.slug === 'desarrollos-pacifico')!.id;
    const units = await db().query<{ doc: Unit; corporate_id: string }>(
      "SELECT doc, corporate_id FROM rm_units WHERE doc->>'status' = 'Disponible' ORDER BY id",
    );
    available = units.rows.filter((r) => r.corporate_id === corp).map((r) => r.doc);
    pacificoUnit = units.rows.find((r) => r.corporate_id === pacificoCorp)!.doc;
    expect(available.length).toBeGreaterThan(10);
  }, 120_000);

  afterAll(async () => {
    await rt?.dispose();
  });

  it('an adviser holds an available unit for their lead: Apartado with holder, client and end; a timer at the end; history by the adviser', async () => {
    const lead = await newLead(asesor);
    const unit = takeUnit();
    const res = await asesor.post(holdUrl(unit.id), {
      idLead: lead.id,
      statusAnterior: 'Disponible',
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const hastaEn = new Date(now.getTime() + 48 * HOUR).toISOString();
    expect(res.json).toMatchObject({
      id: unit.id,
      status: 'Apartado',
      apartado: {
        idLead: lead.id,
        nombreLead: `${lead.nombre} Apartado`,
        idVendedor: ids['asesor@vitrina.demo'],
        nombreVendedor: expect.stringMatching(/\S/),
        desde: now.toISOString(),
        hastaEn,
      },
    });
    // Everyone of the corporate sees it in the grid's data.
    const clusters = await asesor2.get(
      `/api/wsObtenerClusters?idCorporativo=${corp}&idDesarrollo=${unit.idDesarrollo}`,
    );
    const seen = (clusters.json as { unidades: Unit[] }[])
      .flatMap((c) => c.unidades)
      .find((u) => u.id === unit.id);
    expect(seen?.status).toBe('Apartado');
    expect(seen?.apartado?.idLead).toBe(lead.id);
    const timer = await getTimer(db(), unitHoldTimerKey(streams.unit(corp, unit.id)));
    expect(timer).toMatchObject({ kind: 'unit-hold-expiry', state: 'scheduled' });
    expect(timer!.dueAt.toISOString()).toBe(hastaEn);
    const history = await asesor.get(`/api/corporativos/${corp}/unidades/${unit.id}/historial`);
    expect(history.json[0]).toMatchObject({
      tipo: 'UnitHeld',
      campo: 'status',
      anterior: 'Disponible',
      nuevo: 'Apartado',
      actor: res.json.apartado.nombreVendedor,
    });
    // The same hold retried writes nothing more.
    const before = await eventCount();
    const again = await asesor.post(holdUrl(unit.id), {
      idLead: lead.id,
      statusAnterior: 'Disponible',
    });
    expect(again.status).toBe(200);
    expect(await eventCount()).toBe(before);
  });

  it('refusals write nothing: a unit not Disponible (409), another adviser’s lead (403), another corporate (403/404), an unknown lead (404)', async () => {
    const mine = await newLead(asesor);
    const theirs = await newLead(asesor2);
    const unit = takeUnit();
    const sold = await admin.put(`/api/corporativos/${corp}/unidades/${unit.id}/status`, {
      status: 'Vendido',
      statusAnterior: 'Disponible',
    });
    expect(sold.status).toBe(200);
    const free = takeUnit();
    const before = await eventCount();

    const notAvailable = await asesor.post(holdUrl(unit.id), {
      idLead: mine.id,
      statusAnterior: 'Vendido',
    });
    expect(notAvailable.status).toBe(409);
    expect(notAvailable.json).toEqual([
      expect.objectContaining({ errorCode: 'UNIT_NOT_AVAILABLE', message: expect.any(String) }),
    ]);

    const othersLead = await asesor.post(holdUrl(free.id), {
      idLead: theirs.id,
      statusAnterior: 'Disponible',
    });
    expect(othersLead.status).toBe(403);
    expect(othersLead.json[0]).toMatchObject({ errorCode: 'FORBIDDEN' });

    const otherCorporate = await asesor.post(holdUrl(pacificoUnit.id, pacificoCorp), {
      idLead: mine.id,
      statusAnterior: 'Disponible',
    });
    expect(otherCorporate.status).toBe(403);
    const otherCorporatesUnit = await asesor.post(holdUrl(pacificoUnit.id), {
      idLead: mine.id,
      statusAnterior: 'Disponible',
    });
    expect(otherCorporatesUnit.status).toBe(404);

    const unknownLead = await asesor.post(holdUrl(free.id), {
      idLead: 'no-such-lead',
      statusAnterior: 'Disponible',
    });
    expect(unknownLead.status).toBe(404);
    const stale = await asesor.post(holdUrl(free.id), {
      idLead: mine.id,
      statusAnterior: 'Vendido',
    });
    expect(stale.status).toBe(409);
    const badBody = await asesor.post(holdUrl(free.id), { idLead: mine.id });
    expect(badBody.status).toBe(400);

    expect(await eventCount()).toBe(before);
    expect((await unitDoc(free.id)).status).toBe('Disponible');
    expect((await unitDoc(pacificoUnit.id)).status).toBe('Disponible');
  });

  it('20 holds of one unit at once: exactly one wins, the others are 409, one UnitHeld', async () => {
    const leads = [];
    for (let i = 0; i < 20; i++) leads.push(await newLead(asesor));
    const unit = takeUnit();
    const results = await Promise.all(
      leads.map((lead) =>
        asesor.post(holdUrl(unit.id), { idLead: lead.id, statusAnterior: 'Disponible' }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const held = (await unitEvents(unit.id)).filter((e) => e.type === 'UnitHeld');
    expect(held).toHaveLength(1);
    const winner = results.find((r) => r.status === 200)!;
    expect((await unitDoc(unit.id)).apartado?.idLead).toBe(winner.json.apartado.idLead);
  });

  it('release: another adviser may not; the holder may, twice is a no-op; the timer is cancelled', async () => {
    const lead = await newLead(asesor);
    const unit = takeUnit();
    expect(
      (await asesor.post(holdUrl(unit.id), { idLead: lead.id, statusAnterior: 'Disponible' }))
        .status,
    ).toBe(200);
    expect((await asesor2.del(holdUrl(unit.id))).status).toBe(403);
    expect((await asesor2.put(holdUrl(unit.id), { horas: 24 })).status).toBe(403);
    const first = await asesor.del(holdUrl(unit.id));
    expect(first.status).toBe(200);
    expect(first.json.status).toBe('Disponible');
    expect(first.json.apartado).toBeUndefined();
    const before = await eventCount();
    const second = await asesor.del(holdUrl(unit.id));
    expect(second.status).toBe(200);
    expect(second.json.status).toBe('Disponible');
    expect(await eventCount()).toBe(before);
    const released = (await unitEvents(unit.id)).filter((e) => e.type === 'UnitHoldReleased');
    expect(released.map((e) => (e.data as { motivo: string }).motivo)).toEqual(['manual']);
    expect(await getTimer(db(), unitHoldTimerKey(streams.unit(corp, unit.id)))).toBeNull();
  });

  it('the injected clock passes the end: the timer releases the unit once, by Sistema/System', async () => {
    const lead = await newLead(asesor);
    const unit = takeUnit();
    await asesor.post(holdUrl(unit.id), { idLead: lead.id, statusAnterior: 'Disponible' });
    advance(47 * HOUR);
    await fireDue();
    expect((await unitDoc(unit.id)).status).toBe('Apartado');
    advance(1 * HOUR + 1);
    const pass = await fireDue();
    expect(pass.done).toBeGreaterThanOrEqual(1);
    await fireDue();
    advance(100 * HOUR);
    await fireDue();
    const doc = await unitDoc(unit.id);
    expect(doc.status).toBe('Disponible');
    expect(doc.apartado).toBeUndefined();
    const released = (await unitEvents(unit.id)).filter((e) => e.type === 'UnitHoldReleased');
    expect(released).toHaveLength(1);
    expect(released[0]).toMatchObject({ actorId: null, data: { motivo: 'expired' } });
    const timer = await getTimer(db(), unitHoldTimerKey(streams.unit(corp, unit.id)));
    expect(timer?.state).toBe('done');
    const history = `/api/corporativos/${corp}/unidades/${unit.id}/historial`;
    expect((await asesor.get(history)).json[0]).toMatchObject({
      tipo: 'UnitHoldReleased',
      anterior: 'Apartado',
      nuevo: 'Disponible',
      actor: 'Sistema',
    });
    expect((await asesor.get(history, { 'accept-language': 'en' })).json[0].actor).toBe('System');
  });

  it('the clock jumps past many holds’ ends at once: each is released once', async () => {
    const held: Unit[] = [];
    for (let i = 0; i < 8; i++) {
      const lead = await newLead(asesor);
      const unit = takeUnit();
      const res = await asesor.post(holdUrl(unit.id), {
        idLead: lead.id,
        statusAnterior: 'Disponible',
      });
      expect(res.status).toBe(200);
      held.push(unit);
      advance(60_000);
    }
    advance(72 * HOUR);
    await Promise.all([fireDue(), fireDue(), fireDue()]);
    await fireDue();
    for (const unit of held) {
      expect((await unitDoc(unit.id)).status).toBe('Disponible');
      const released = (await unitEvents(unit.id)).filter((e) => e.type === 'UnitHoldReleased');
      expect(released).toHaveLength(1);
    }
  });

  it('a manager extends: the old end passes without release, the new end releases', async () => {
    const lead = await newLead(asesor);
    const unit = takeUnit();
    await asesor.post(holdUrl(unit.id), { idLead: lead.id, statusAnterior: 'Disponible' });
    const extended = await gerente.put(holdUrl(unit.id), { horas: 72 });
    expect(extended.status, JSON.stringify(extended.json)).toBe(200);
    expect(extended.json.apartado.hastaEn).toBe(new Date(now.getTime() + 72 * HOUR).toISOString());
    advance(49 * HOUR);
    await fireDue();
    expect((await unitDoc(unit.id)).status).toBe('Apartado');
    advance(24 * HOUR);
    await fireDue();
    expect((await unitDoc(unit.id)).status).toBe('Disponible');
    expect((await unitEvents(unit.id)).filter((e) => e.type === 'UnitHoldReleased')).toHaveLength(
      1,
    );
  });

  it('a sale clears the hold and cancels its timer: nothing is released later', async () => {
    const lead = await newLead(asesor);
    const unit = takeUnit();
    await asesor.post(holdUrl(unit.id), { idLead: lead.id, statusAnterior: 'Disponible' });
    const sold = await admin.put(`/api/corporativos/${corp}/unidades/${unit.id}/status`, {
      status: 'Vendido',
      statusAnterior: 'Apartado',
    });
    expect(sold.status).toBe(200);
    expect(sold.json.status).toBe('Vendido');
    expect(sold.json.apartado).toBeUndefined();
    expect(await getTimer(db(), unitHoldTimerKey(streams.unit(corp, unit.id)))).toBeNull();
    advance(100 * HOUR);
    await fireDue();
    expect((await unitDoc(unit.id)).status).toBe('Vendido');
    expect((await unitEvents(unit.id)).some((e) => e.type === 'UnitHoldReleased')).toBe(false);
    // Releasing it now is a no-op too.
    expect((await asesor.del(holdUrl(unit.id))).json.status).toBe('Vendido');
  });
});
