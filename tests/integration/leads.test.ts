import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import type { Lead } from '../../src/core/lead';
import type { StoredEvent } from '../../src/server/store/event-store';
import { PUBLIC_CAPTURE_LIMIT_PER_HOUR } from '../../src/server/leads/capture';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, login, signedIn } from './support/http';

type Client = ReturnType<typeof client>;

describeBackends('leads API', (backend: Backend) => {
  let now = new Date('2026-11-22T10:00:00Z');
  const tick = (seconds = 60) => {
    now = new Date(now.getTime() + seconds * 1000);
  };
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let asesor: Client;
  let asesor2: Client;
  let gerente: Client;
  let pacifico: Client;
  let anonymous: Client;
  let corp: string;
  let pacificoCorp: string;
  const ids: Record<string, string> = {};
  const appended: StoredEvent[] = [];

  const eventCount = async () =>
    (await rt.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
  const leadsUrl = (c = corp) => `/api/corporativos/${c}/leads`;
  const list = (who: Client, extra = '', c = corp) =>
    who.get(`/api/wsObtenerLeads?idCorporativo=${c}${extra}`);
  const history = (who: Client, idLead: string, c = corp) =>
    who.get(`/api/wsObtenerHistorialCambios?idCorporativo=${c}&idLead=${idLead}`);
  let seq = 0;
  const newLead = async (who: Client, over: Record<string, unknown> = {}) => {
    seq += 1;
    tick();
    const res = await who.post(leadsUrl(), {
      nombre: `Cliente ${seq}`,
      apellidos: 'Prueba',
      email: `cliente${seq}@example.com`,
      telefono: `55 1000 ${String(1000 + seq)}`,
      medioContacto: 'Showroom',
      ...over,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json as Lead;
  };

  beforeAll(async () => {
    rt = await openSeeded(backend, { clock: () => now });
    rt.deps.store.onAppended((events) => appended.push(...events));
    app = createApp(rt.deps);
    const sign = (email: string) => signedIn(app, email, ids);
    asesor = await sign('asesor@vitrina.demo');
    asesor2 = await sign('asesor2@vitrina.demo');
    gerente = await sign('gerente@vitrina.demo');
    pacifico = await sign('asesor.pacifico@vitrina.demo');
    anonymous = client(app);
    corp = (await gerente.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
    pacificoCorp = (await pacifico.get('/api/wsObtenerCorporativo?slug=desarrollos-pacifico')).json
      .id;
  });
  afterAll(async () => {
    await rt.dispose();
  });

  describe('scope matrix: Propios, Todos, another corporate', () => {
    let mine: Lead;
    let theirs: Lead;
    let managers: Lead;

    beforeAll(async () => {
      mine = await newLead(asesor);
      theirs = await newLead(asesor2);
      managers = await newLead(gerente);
    });

    it('registers with the caller as owner, fechaAlta in seconds and the first lead status', () => {
      expect(mine.idVendedor).toBe(ids['asesor@vitrina.demo']);
      expect(mine.idCorporativo).toBe(corp);
      expect(mine.fechaAlta).toBe(Math.floor(now.getTime() / 1000) - 120);
      expect(mine.status).toBe('nuevo');
      expect(mine.eliminado).toBe(false);
    });

    it('lists: Propios sees only their own, Todos the whole corporate newest first, another corporate nothing', async () => {
      const own = await list(asesor);
      expect(own.status).toBe(200);
      expect(own.json.map((l: Lead) => l.id)).toEqual([mine.id]);
      expect((await list(asesor2)).json.map((l: Lead) => l.id)).toEqual([theirs.id]);
      // Asking for someone else's leads does not widen a Propios scope.
      expect((await list(asesor, `&idVendedor=${ids['asesor2@vitrina.demo']}`)).json).toEqual([]);
      const all = (await list(gerente)).json.map((l: Lead) => l.id);
      expect(all.slice(0, 3)).toEqual([managers.id, theirs.id, mine.id]);
      expect(
        (await list(gerente, `&idVendedor=${ids['asesor2@vitrina.demo']}`)).json.map(
          (l: Lead) => l.id,
        ),
      ).toEqual([theirs.id]);
      const foreign = await list(pacifico);
      expect(foreign.status).toBe(403);
      expect(foreign.json[0].message).toBe('No tienes permisos para ver el corporativo');
      expect((await list(pacifico, '', pacificoCorp)).json).toEqual([]);
    });

    it('reads one lead only within scope; out of scope is 404 like an absent lead', async () => {
      expect((await asesor.get(`${leadsUrl()}/${mine.id}`)).json.id).toBe(mine.id);
      const other = await asesor.get(`${leadsUrl()}/${theirs.id}`);
      const absent = await asesor.get(`${leadsUrl()}/no-such-lead`);
      expect(other.status).toBe(404);
      expect(other.json).toEqual(absent.json);
      expect((await asesor.get(`${leadsUrl()}/${managers.id}`)).status).toBe(404);
      expect((await gerente.get(`${leadsUrl()}/${mine.id}`)).status).toBe(200);
      expect((await pacifico.get(`${leadsUrl()}/${mine.id}`)).status).toBe(403);
      expect((await pacifico.get(`${leadsUrl(pacificoCorp)}/${mine.id}`)).status).toBe(404);
    });

    it('updates, deletes, notes and history refuse out-of-scope callers and write nothing', async () => {
      const before = await eventCount();
      const put = (who: Client, c = corp) =>
        who.put(`${leadsUrl(c)}/${mine.id}`, {
          nombre: 'Hack',
          leadAnterior: { nombre: mine.nombre },
        });
      expect((await put(asesor2)).status).toBe(404);
      expect((await put(pacifico)).status).toBe(403);
      expect((await put(pacifico, pacificoCorp)).status).toBe(404);
      expect((await asesor2.del(`${leadsUrl()}/${mine.id}`)).status).toBe(404);
      expect((await pacifico.del(`${leadsUrl(pacificoCorp)}/${mine.id}`)).status).toBe(404);
      const note = await asesor2.post(`${leadsUrl()}/${mine.id}/notas`, { nota: 'hola' });
      expect(note.status).toBe(404);
      expect(note.json[0].message).toBe('El documento no existe en la ruta especificada.');
      const notes = await asesor2.get(`${leadsUrl()}/${mine.id}/notas`);
      expect(notes.status).toBe(404);
      expect(notes.json[0].message).toBe('El documento no existe en la ruta especificada.');
      expect((await history(asesor2, mine.id)).status).toBe(404);
      expect((await history(pacifico, mine.id)).status).toBe(403);
      expect((await history(pacifico, mine.id, pacificoCorp)).status).toBe(404);
      expect((await history(asesor, managers.id)).status).toBe(404);
      expect(await eventCount()).toBe(before);
      expect((await gerente.get(`${leadsUrl()}/${mine.id}`)).json.nombre).toBe(mine.nombre);
    });

    it('lets the owner and the manager update, and shows both changes in the history with who and when', async () => {
      tick();
      const a = await asesor.put(`${leadsUrl()}/${mine.id}`, {
        ...mine,
        status: 'contactado',
        leadAnterior: mine,
      });
      expect(a.status, JSON.stringify(a.json)).toBe(200);
      expect(a.json.status).toBe('contactado');
      tick();
      const g = await gerente.put(`${leadsUrl()}/${mine.id}`, {
        celular: '33 2222 1111',
        leadAnterior: { celular: null, status: 'contactado' },
      });
      expect(g.status).toBe(200);
      const h = await history(asesor, mine.id);
      expect(h.status).toBe(200);
      expect(h.json.slice(0, 2)).toEqual([
        expect.objectContaining({
          campo: 'celular',
          anterior: null,
          nuevo: '33 2222 1111',
          actor: ids['gerente@vitrina.demo'],
          nombreActor: 'Gerardo Méndez',
          fecha: Math.floor(now.getTime() / 1000),
        }),
        expect.objectContaining({
          campo: 'status',
          anterior: 'nuevo',
          nuevo: 'contactado',
          actor: ids['asesor@vitrina.demo'],
          fecha: Math.floor(now.getTime() / 1000) - 60,
        }),
      ]);
      mine = g.json;
    });

    it('keeps the history from fecha (seconds, a day or an instant) and refuses a day that does not exist', async () => {
      const at = (fecha: string) =>
        asesor.get(
          `/api/wsObtenerHistorialCambios?idCorporativo=${corp}&idLead=${mine.id}&fecha=${encodeURIComponent(fecha)}`,
        );
      const nowSeconds = Math.floor(now.getTime() / 1000);
      const latest = await at(String(nowSeconds));
      expect(latest.status).toBe(200);
      expect(latest.json.map((e: { campo: string }) => e.campo)).toEqual(['celular']);
      const day = now.toISOString().slice(0, 10);
      expect((await at(day)).status).toBe(200);
      expect((await at(new Date(nowSeconds * 1000).toISOString())).json).toHaveLength(1);
      expect((await at('2026-03-01T00:00:00-06:00')).status).toBe(200);
      for (const bad of [
        '2026-02-30',
        '2026-13-01',
        '2026-02-28T25:00Z',
        'ayer',
        '0x10',
        '1e9',
        '9'.repeat(20),
      ]) {
        const r = await at(bad);
        expect(r.status, bad).toBe(400);
        expect(r.json[0].errorCode, bad).toBe('VALIDATION');
      }
    });
  });

  it('answers a stale leadAnterior with 409 and the current lead, never overwriting', async () => {
    const lead = await newLead(asesor);
    tick();
    expect(
      (await gerente.put(`${leadsUrl()}/${lead.id}`, { status: 'visita', leadAnterior: lead }))
        .status,
    ).toBe(200);
    const before = await eventCount();
    const stale = await asesor.put(`${leadsUrl()}/${lead.id}`, {
      ...lead,
      nombre: 'Otro nombre',
      leadAnterior: lead,
    });
    expect(stale.status).toBe(409);
    expect(stale.json[0].errorCode).toBe('CONFLICT');
    expect(stale.json[0].lead).toMatchObject({
      id: lead.id,
      status: 'visita',
      nombre: lead.nombre,
    });
    expect(await eventCount()).toBe(before);
    expect((await asesor.get(`${leadsUrl()}/${lead.id}`)).json.nombre).toBe(lead.nombre);
  });

  it('detects duplicates by email or phone and names only the owner; a manager merges them', async () => {
    const existing = await newLead(asesor, {
      email: 'Dup@Example.com',
      telefono: '+52 (55) 7777-0001',
    });
    const before = await eventCount();
    const byEmail = await asesor2.post(leadsUrl(), { nombre: 'Otra', email: 'dup@example.com' });
    expect(byEmail.status).toBe(409);
    expect(byEmail.json[0]).toEqual({
      errorCode: 'LEAD_DUPLICATE',
      message: 'Ya existe un cliente con ese correo o teléfono; lo atiende Sofía Navarro',
      propietario: { nombre: 'Sofía Navarro' },
    });
    const byPhone = await gerente.post(leadsUrl(), { nombre: 'Otra', celular: '52 55 7777 0001' });
    expect(byPhone.status).toBe(409);
    expect(byPhone.json[0].propietario).toEqual({ nombre: 'Sofía Navarro' });
    // Who may see the existing lead (Todos, or its owner) is also told which one it is.
    expect(byPhone.json[0]).toMatchObject({ idLead: existing.id, propio: false });
    const byOwner = await asesor.post(leadsUrl(), { nombre: 'Otra', email: 'DUP@example.com' });
    expect(byOwner.status).toBe(409);
    expect(byOwner.json[0]).toEqual({
      errorCode: 'LEAD_DUPLICATE',
      message: 'Esta persona ya es uno de tus clientes',
      propietario: { nombre: 'Sofía Navarro' },
      idLead: existing.id,
      propio: true,
    });
    expect(await eventCount()).toBe(before);

    // Two records of one person with different contacts: the manager merges them.
    const second = await newLead(asesor2, {
      email: null,
      telefono: null,
      celular: '55 8888 0002',
      notas: '',
    });
    await asesor2.post(`${leadsUrl()}/${second.id}/notas`, { nota: 'Quiere 2 recámaras' });
    const survivor = await newLead(gerente, { email: 'persona@example.com', telefono: null });
    const merge = (who: Client) =>
      who.post(`${leadsUrl()}/${survivor.id}/merge`, { idLeadDuplicado: second.id });
    expect(
      (await asesor2.post(`${leadsUrl()}/${second.id}/merge`, { idLeadDuplicado: second.id }))
        .status,
    ).toBe(403);
    const merged = await merge(gerente);
    expect(merged.status, JSON.stringify(merged.json)).toBe(200);
    expect(merged.json.celular).toBe('55 8888 0002');
    expect(merged.json.email).toBe('persona@example.com');
    expect((await gerente.get(`${leadsUrl()}/${second.id}`)).status).toBe(404);
    const notes = (await gerente.get(`${leadsUrl()}/${survivor.id}/notas`)).json;
    expect(notes.map((n: { nota: string }) => n.nota)).toEqual(['Quiere 2 recámaras']);
    // Reassigning: the manager may, the adviser may not, and only to an approved member.
    const reassign = await gerente.post(`${leadsUrl()}/${survivor.id}/asignar`, {
      idVendedor: ids['asesor2@vitrina.demo'],
    });
    expect(reassign.json.idVendedor).toBe(ids['asesor2@vitrina.demo']);
    const forbidden = await asesor2.post(`${leadsUrl()}/${survivor.id}/asignar`, {
      idVendedor: ids['asesor@vitrina.demo'],
    });
    expect(forbidden.status).toBe(403);
    const foreign = await gerente.post(`${leadsUrl()}/${survivor.id}/asignar`, {
      idVendedor: ids['asesor.pacifico@vitrina.demo'],
    });
    expect(foreign.status).toBe(400);
    expect(foreign.json[0].errorCode).toBe('LEAD_ADVISER_INVALID');
  });

  describe('duplicate protection holds for edits, country codes and simultaneous writes', () => {
    it("an edit may not take another live lead's email or phone; its own contacts stay editable", async () => {
      const owner = await newLead(asesor, {
        email: 'edit-dup@example.com',
        telefono: '55 6100 0001',
      });
      const other = await newLead(asesor, { email: 'edit-other@example.com', telefono: null });
      const before = await eventCount();
      const takeEmail = await asesor.put(`${leadsUrl()}/${other.id}`, {
        email: 'EDIT-DUP@example.com',
        leadAnterior: other,
      });
      expect(takeEmail.status).toBe(409);
      expect(takeEmail.json[0]).toMatchObject({
        errorCode: 'LEAD_DUPLICATE',
        propietario: { nombre: 'Sofía Navarro' },
      });
      const takePhone = await asesor.put(`${leadsUrl()}/${other.id}`, {
        celular: '+52 55 6100 0001',
        leadAnterior: other,
      });
      expect(takePhone.status).toBe(409);
      expect(await eventCount()).toBe(before);
      // Editing a lead that keeps its own email and phone is no duplicate of itself.
      const own = await asesor.put(`${leadsUrl()}/${owner.id}`, {
        nombre: 'Renombrada',
        telefono: '+52 55 6100 0001',
        leadAnterior: owner,
      });
      expect(own.status, JSON.stringify(own.json)).toBe(200);
      // Once the first lead is deleted its email is free again.
      expect((await asesor.del(`${leadsUrl()}/${owner.id}`)).status).toBeLessThan(300);
      const freed = await asesor.put(`${leadsUrl()}/${other.id}`, {
        email: 'edit-dup@example.com',
        leadAnterior: other,
      });
      expect(freed.status, JSON.stringify(freed.json)).toBe(200);
    });

    it('phones match with or without the country code', async () => {
      await newLead(asesor, { email: null, telefono: '55 6200 0002' });
      for (const telefono of ['+52 55 6200 0002', '+52 1 55 6200 0002', '(55) 6200-0002']) {
        const res = await asesor2.post(leadsUrl(), { nombre: 'Otra', telefono });
        expect(res.status, telefono).toBe(409);
      }
      // Seven digits are compared whole: a short number is not a suffix match of a long one.
      expect(
        (await asesor2.post(leadsUrl(), { nombre: 'Corta', telefono: '620 0002' })).status,
      ).toBe(201);
    });

    it('simultaneous registrations of one person give one lead and 409 for the rest', async () => {
      const leadsNamed = async (email: string) =>
        (
          await rt.deps.db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM rm_leads WHERE email_norm = $1 AND NOT eliminado',
            [email],
          )
        ).rows[0]!.n;
      tick();
      const racers = await Promise.all(
        [asesor, asesor2, gerente, asesor, asesor2].map((who, i) =>
          who.post(leadsUrl(), { nombre: `Carrera ${i}`, email: 'carrera@example.com' }),
        ),
      );
      expect(racers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
      for (const r of racers.filter((x) => x.status === 409)) {
        expect(r.json[0].errorCode).toBe('LEAD_DUPLICATE');
      }
      expect(await leadsNamed('carrera@example.com')).toBe(1);

      // Two public captures of one new person at once: one lead, the other becomes its note.
      const captures = await Promise.all(
        ['Primera', 'Segunda'].map((mensaje) =>
          anonymous.post('/api/public/registro?medio=Sitio%20web&corp=grupo-horizonte', {
            nombre: 'Visitante Doble',
            email: 'doble@example.com',
            mensaje,
          }),
        ),
      );
      expect(captures.map((r) => r.status)).toEqual([202, 202]);
      expect(await leadsNamed('doble@example.com')).toBe(1);
    });
  });

  it('a role change applies to an open live stream from the next event on', async () => {
    const res = await app.request('/api/stream', {
      headers: { cookie: await login(app, 'asesor@vitrina.demo') },
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    // A read that outlives a timeout is kept for the next call, so no chunk is lost.
    let reading: ReturnType<typeof reader.read> | null = null;
    const readUntil = async (needle: string, ms: number) => {
      const deadline = Date.now() + ms;
      while (!seen.includes(needle) && Date.now() < deadline) {
        reading ??= reader.read();
        const chunk = await Promise.race([
          reading,
          new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now())),
        ]);
        if (!chunk) break;
        reading = null;
        if (chunk.done) break;
        seen += decoder.decode(chunk.value);
      }
      return seen.includes(needle);
    };
    try {
      expect(await readUntil('ready', 2000)).toBe(true);
      // Propios: another adviser's lead is not announced.
      const before = await newLead(asesor2);
      expect(await readUntil(before.id, 300)).toBe(false);
      const corporate = (await gerente.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json;
      const roles = corporate.roles.map((r: { id: string; permisosLeads: object }) =>
        r.id === 'gru-asesor'
          ? { ...r, permisosLeads: { ...r.permisosLeads, alcanceLeads: 'Todos' } }
          : r,
      );
      await rt.deps.store.append(`corporate:${corp}`, 'any', [
        {
          id: rt.deps.newId(),
          type: 'CorporateSettingsChanged',
          data: { changes: { roles } },
          corporateId: corp,
          actorId: 'test',
          occurredAt: now,
        },
      ]);
      try {
        // Todos now: the very next lead of another adviser is announced, long before 30 s.
        const after = await newLead(asesor2);
        expect(await readUntil(after.id, 1000), seen).toBe(true);
      } finally {
        await rt.deps.store.append(`corporate:${corp}`, 'any', [
          {
            id: rt.deps.newId(),
            type: 'CorporateSettingsChanged',
            data: { changes: { roles: corporate.roles } },
            corporateId: corp,
            actorId: 'test',
            occurredAt: now,
          },
        ]);
      }
    } finally {
      await reader.cancel();
    }
  });

  it('notes: added, listed newest first without deleted ones, deleted softly, spec errors', async () => {
    const lead = await newLead(asesor);
    const keys: string[] = [];
    for (const nota of ['primera', 'segunda', 'tercera']) {
      tick();
      const res = await asesor.post(`${leadsUrl()}/${lead.id}/notas`, { nota });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({
        nota,
        eliminado: false,
        fechaRegistro: Math.floor(now.getTime() / 1000),
      });
      keys.push(res.json.key);
    }
    expect((await asesor.del(`${leadsUrl()}/${lead.id}/notas/${keys[1]}`)).status).toBe(200);
    const listed = await asesor.get(`${leadsUrl()}/${lead.id}/notas`);
    expect(listed.json.map((n: { nota: string }) => n.nota)).toEqual(['tercera', 'primera']);
    // Whoever reads the notes sees who wrote them by name, as in the history.
    const byManager = await gerente.get(`${leadsUrl()}/${lead.id}/notas`);
    expect(byManager.json[0]).toMatchObject({
      idUsuario: ids['asesor@vitrina.demo'],
      nombreUsuario: 'Sofía Navarro',
    });
    const again = await asesor.del(`${leadsUrl()}/${lead.id}/notas/${keys[1]}`);
    expect(again.status).toBe(404);
    expect(again.json[0].message).toBe(`La nota con la clave ${keys[1]} no existe.`);
    const unknown = await asesor.del(`${leadsUrl()}/${lead.id}/notas/nope`);
    expect(unknown.json[0].message).toBe('La nota con la clave nope no existe.');
    const missing = await asesor.del(`${leadsUrl()}/no-lead/notas/nope`);
    expect(missing.json[0].message).toBe('El documento no existe en la ruta especificada.');
    // In English where the caller reads English (the spec quotes the Spanish texts).
    const en = { 'accept-language': 'en' };
    expect((await asesor.del(`${leadsUrl()}/${lead.id}/notas/nope`, en)).json[0].message).toBe(
      'The note with the key nope does not exist.',
    );
    expect((await asesor.del(`${leadsUrl()}/no-lead/notas/nope`, en)).json[0].message).toBe(
      'The document does not exist at the given path.',
    );
    expect((await asesor.post(`${leadsUrl()}/${lead.id}/notas`, { nota: '   ' })).status).toBe(400);
  });

  it('soft delete hides the lead but keeps its history', async () => {
    const lead = await newLead(asesor);
    tick();
    await asesor.put(`${leadsUrl()}/${lead.id}`, {
      tipo: 'Inversionista',
      leadAnterior: { tipo: null },
    });
    tick();
    expect((await asesor.del(`${leadsUrl()}/${lead.id}`)).status).toBe(200);
    expect((await asesor.get(`${leadsUrl()}/${lead.id}`)).status).toBe(404);
    expect((await list(gerente)).json.some((l: Lead) => l.id === lead.id)).toBe(false);
    expect((await asesor.del(`${leadsUrl()}/${lead.id}`)).status).toBe(404);
    const h = await history(gerente, lead.id);
    expect(h.status).toBe(200);
    expect(h.json.map((e: { campo: string }) => e.campo).slice(0, 2)).toEqual([
      'eliminado',
      'tipo',
    ]);
    expect(h.json[0]).toMatchObject({ anterior: false, nuevo: true, nombreActor: 'Sofía Navarro' });
    const row = await rt.deps.db.query<{ eliminado: boolean }>(
      'SELECT eliminado FROM rm_leads WHERE id = $1',
      [lead.id],
    );
    expect(row.rows[0]?.eliminado).toBe(true);
  });

  it('refuses bad input with 400 in the spec shape and writes nothing', async () => {
    const before = await eventCount();
    const bad = await asesor.post(leadsUrl(), {
      nombre: ' ',
      email: 'no-es-correo',
      telefono: '12',
    });
    expect(bad.status).toBe(400);
    expect(bad.json[0].errorCode).toBe('VALIDATION');
    expect(bad.json[0].details).toEqual([
      { path: 'nombre', code: 'required' },
      { path: 'email', code: 'invalid_email' },
      { path: 'telefono', code: 'invalid_phone' },
    ]);
    expect(
      (await asesor.post(leadsUrl(), { nombre: 'Ana', medioContacto: 'Paloma mensajera' })).json[0]
        .details,
    ).toEqual([{ path: 'medioContacto', code: 'unknown_value' }]);
    expect((await asesor.post(leadsUrl(), { nombre: 'Ana', status: 'inventado' })).status).toBe(
      400,
    );
    expect((await asesor.post(leadsUrl(), { nombre: 'Ana', esAdmin: true })).status).toBe(400);
    expect(
      (await asesor.post(leadsUrl(), { nombre: 'Ana', idVendedor: ids['asesor2@vitrina.demo'] }))
        .status,
    ).toBe(403);
    expect((await asesor.get(`/api/wsObtenerLeads?idCorporativo=${corp}&limit=0`)).status).toBe(
      400,
    );
    expect(
      (await asesor.get(`/api/wsObtenerLeads?idCorporativo=${corp}&limit=5&cursor=xx`)).status,
    ).toBe(400);
    expect((await anonymous.get(`/api/wsObtenerLeads?idCorporativo=${corp}`)).status).toBe(401);
    expect(await eventCount()).toBe(before);
  });

  it('searches as you type by name, surname, email and phone, and pages with a cursor', async () => {
    const ana = await newLead(gerente, {
      nombre: 'Ána Lucía',
      apellidos: 'Zúñiga',
      email: 'alz@correo.mx',
      telefono: '81 4321 0000',
    });
    const q = async (text: string) =>
      (await list(gerente, `&q=${encodeURIComponent(text)}`)).json.map((l: Lead) => l.id);
    expect(await q('ana luc')).toEqual([ana.id]);
    expect(await q('ZUÑ')).toEqual([ana.id]);
    expect(await q('alz@')).toEqual([ana.id]);
    expect(await q('81 43')).toEqual([ana.id]);
    expect(await q('lucia')).toEqual([]);
    // Propios search stays within its scope.
    expect((await list(asesor, '&q=ana')).json).toEqual([]);

    const all = (await list(gerente)).json.map((l: Lead) => l.id);
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(gerente, `&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      pages.push(...res.json.map((l: Lead) => l.id));
      cursor = res.headers.get('x-next-cursor');
    } while (cursor);
    expect(pages).toEqual(all);
    expect(all.length).toBeGreaterThan(6);
  });

  it('lead events carry the corporate and the owner for the live stream', () => {
    const leadEvents = appended.filter((e) => e.streamId.startsWith('lead:'));
    expect(leadEvents.length).toBeGreaterThan(10);
    for (const e of leadEvents) {
      expect(e.corporateId).toBe(corp);
      expect(e.data).toHaveProperty('idVendedor');
      expect(e.data).toHaveProperty('idLead');
    }
  });

  describe('public capture', () => {
    const capture = (body: unknown, query = 'medio=Sitio%20web&corp=grupo-horizonte') =>
      anonymous.post(`/api/public/registro?${query}`, body);

    it('assigns by round robin: two captures go to two different advisers, visible in history', async () => {
      const before = (await list(gerente)).json.length;
      tick();
      const a = await capture({
        nombre: 'Web Uno',
        email: 'web1@example.com',
        mensaje: 'Me interesa Torre Alameda',
      });
      tick();
      const b = await capture({
        nombre: 'Web Dos',
        telefono: '55 3333 4444',
        desarrollo: 'torre-alameda',
      });
      expect(a.status).toBe(202);
      expect(b.status).toBe(202);
      const leads: Lead[] = (await list(gerente)).json;
      expect(leads.length).toBe(before + 2);
      const [second, first] = leads;
      expect(first!.nombre).toBe('Web Uno');
      expect(second!.nombre).toBe('Web Dos');
      const advisers = [ids['asesor@vitrina.demo'], ids['asesor2@vitrina.demo']];
      expect(advisers).toContain(first!.idVendedor);
      expect(advisers).toContain(second!.idVendedor);
      expect(first!.idVendedor).not.toBe(second!.idVendedor);
      expect(first!.medioContacto).toBe('Sitio web');
      const h = (await history(gerente, first!.id)).json;
      expect(h[0]).toMatchObject({
        campo: 'idVendedor',
        anterior: null,
        nuevo: first!.idVendedor,
        actor: null,
        evento: 'LeadAssigned',
      });
      const notes = (await gerente.get(`${leadsUrl()}/${first!.id}/notas`)).json;
      expect(notes[0].nota).toBe('Sitio web: Me interesa Torre Alameda');
      expect(notes[0]).toMatchObject({ idUsuario: null, nombreUsuario: null });
      // The owner sees it in their own list.
      const ownerClient = first!.idVendedor === ids['asesor@vitrina.demo'] ? asesor : asesor2;
      expect((await list(ownerClient)).json.some((l: Lead) => l.id === first!.id)).toBe(true);
    });

    it('answers the same for a person already registered, creating no second lead', async () => {
      const fresh = await capture({ nombre: 'Web Tres', email: 'web3@example.com' });
      const count = (await list(gerente)).json.length;
      const repeat = await capture({
        nombre: 'Web Tres',
        email: 'WEB3@example.com',
        mensaje: 'Otra vez',
      });
      expect(repeat.status).toBe(fresh.status);
      expect(repeat.json).toEqual(fresh.json);
      expect((await list(gerente)).json.length).toBe(count);
    });

    it('validates: bad input is 400 and writes nothing', async () => {
      const before = await eventCount();
      expect((await capture({ nombre: 'Sin contacto' })).status).toBe(400);
      expect((await capture({ nombre: 'X', email: 'malo' })).status).toBe(400);
      expect((await capture({ nombre: 'X', email: 'x@example.com', extra: 1 })).status).toBe(400);
      expect(
        (await capture({ nombre: 'X', email: 'x@example.com' }, 'medio=Fax&corp=grupo-horizonte'))
          .status,
      ).toBe(400);
      expect(
        (await capture({ nombre: 'X', email: 'x@example.com' }, 'medio=Sitio%20web&corp=no-existe'))
          .status,
      ).toBe(404);
      expect(await eventCount()).toBe(before);
    });

    it(`is rate limited to ${PUBLIC_CAPTURE_LIMIT_PER_HOUR} attempts per address per hour, with Retry-After`, async () => {
      tick(2 * 3600);
      for (let i = 0; i < PUBLIC_CAPTURE_LIMIT_PER_HOUR; i++) {
        expect((await capture({ nombre: '' })).status).toBe(400);
      }
      const limited = await capture({ nombre: 'Web', email: 'limit@example.com' });
      expect(limited.status).toBe(429);
      expect(limited.json[0].errorCode).toBe('RATE_LIMITED');
      expect(Number(limited.headers.get('retry-after'))).toBe(3600);
      tick(3601);
      expect((await capture({ nombre: 'Web', email: 'limit@example.com' })).status).toBe(202);
    });
  });
});
