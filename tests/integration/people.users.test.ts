/**
 * Issue 16 on both backends: the users page's calls. The corporate's users (search, role and
 * status filters, paging), creating a user, a manager's edit of a member under the role rule of
 * spec §6, deactivation (no sign-in, sessions ended, leads and appointments reassigned in one
 * step) and reactivation. Every refusal is a 4xx in the spec's shape and writes nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Corporate } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { describeBackends, openSeeded } from './support/backends';
import { client, login, signedIn } from './support/http';

type Client = ReturnType<typeof client>;
const PASSWORD = 'Nuevo2026Clave';

describeBackends('people: users page calls', (backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let admin: Client;
  let gerente: Client;
  let asesor: Client;
  let hostess: Client;
  const ids: Record<string, string> = {};
  let H: Corporate;
  let P: Corporate;
  const role = (corp: Corporate, suffix: string) =>
    corp.roles.find((r) => r.id.endsWith(`-${suffix}`))!.id;
  const events = async () =>
    (await rt.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
  /** The call fails with `status` and `errorCode`, and writes no event. */
  async function refused(
    call: () => Promise<{ status: number; json: any }>,
    status: number,
    errorCode?: string,
  ) {
    const before = await events();
    const res = await call();
    expect(res.status, JSON.stringify(res.json)).toBe(status);
    expect(Array.isArray(res.json)).toBe(true);
    expect(typeof res.json[0].message).toBe('string');
    if (errorCode) expect(res.json[0].errorCode).toBe(errorCode);
    expect(await events()).toBe(before);
    return res;
  }

  beforeAll(async () => {
    rt = await openSeeded(backend);
    app = createApp(rt.deps);
    admin = await signedIn(app, 'admin@vitrina.demo', ids);
    gerente = await signedIn(app, 'gerente@vitrina.demo', ids);
    asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    hostess = await signedIn(app, 'hostess@vitrina.demo', ids);
    await signedIn(app, 'asesor.pacifico@vitrina.demo', ids);
    await signedIn(app, 'broker@vitrina.demo', ids);
    H = (await admin.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json;
    P = (await admin.get('/api/wsObtenerCorporativo?slug=desarrollos-pacifico')).json;
  });
  afterAll(async () => {
    await rt.dispose();
  });

  const list = (c: Client, corp: Corporate, params: Record<string, string> = {}) =>
    c.get(`/api/users/indices/users?${new URLSearchParams({ corporateId: corp.id, ...params })}`);

  it('lists the corporate’s users by name, with search, role and status filters and pages', async () => {
    const all = await list(admin, H);
    expect(all.status).toBe(200);
    const emails = all.json.usuarios.map((u: { email: string }) => u.email);
    expect(emails).toEqual(
      expect.arrayContaining([
        'admin@vitrina.demo',
        'gerente@vitrina.demo',
        'asesor@vitrina.demo',
        'hostess@vitrina.demo',
        'broker@vitrina.demo',
      ]),
    );
    expect(emails).not.toContain('asesor.pacifico@vitrina.demo');
    expect(all.json.total).toBe(all.json.usuarios.length);
    const names = all.json.usuarios.map((u: { nombre: string }) => u.nombre.toLowerCase());
    expect(names).toEqual([...names].sort());
    // Search anywhere in the name, surnames or e-mail, whatever the case.
    const found = await list(admin, H, { q: 'NAVARRO' });
    expect(found.json.usuarios.map((u: { email: string }) => u.email)).toEqual([
      'asesor@vitrina.demo',
    ]);
    expect((await list(admin, H, { q: '%' })).json.total).toBe(0);
    const advisers = await list(admin, H, { rol: role(H, 'asesor') });
    expect(advisers.json.usuarios.map((u: { email: string }) => u.email).sort()).toEqual([
      'asesor2@vitrina.demo',
      'asesor@vitrina.demo',
    ]);
    // The broker is pending in desarrollos-pacifico: 'pendiente' there, with no role.
    const pending = await list(admin, P, { estatus: 'pendiente' });
    expect(pending.json.usuarios).toEqual([
      expect.objectContaining({ email: 'broker@vitrina.demo', estatus: 'pendiente', idRol: null }),
    ]);
    // Pages of two: the total stays, the rows move on.
    const page1 = await list(admin, H, { porPagina: '2', pagina: '1' });
    const page2 = await list(admin, H, { porPagina: '2', pagina: '2' });
    expect(page1.json.usuarios).toHaveLength(2);
    expect(page1.json.total).toBe(all.json.total);
    expect(page2.json.usuarios[0].id).toBe(all.json.usuarios[2].id);
    const past = await list(admin, H, { porPagina: '2', pagina: '50' });
    expect(past.json).toMatchObject({ usuarios: [], total: all.json.total });
    // Nothing of the user's other corporates shows.
    const adminRow = all.json.usuarios.find(
      (u: { email: string }) => u.email === 'admin@vitrina.demo',
    );
    expect(JSON.stringify(adminRow)).not.toContain(P.id);
  });

  it('the list is for roles that create or edit users, in their own corporates', async () => {
    expect((await list(gerente, H)).status).toBe(200);
    await refused(() => list(asesor, H), 403);
    await refused(() => list(hostess, H), 403);
    await refused(() => list(gerente, P), 403, 'FORBIDDEN');
    await refused(() => list(admin, H, { estatus: 'raro' }), 400, 'VALIDATION');
    await refused(() => list(admin, H, { porPagina: '1000' }), 400);
  });

  const newUser = (over: Record<string, unknown> = {}) => ({
    idCorporativo: H.id,
    email: `persona.${Math.random().toString(36).slice(2, 8)}@example.com`,
    nombre: 'Paula',
    apellidos: 'Reyes',
    idRol: role(H, 'asesor'),
    password: PASSWORD,
    ...over,
  });

  it('POST /api/auth/create-user: an active member who signs in with the password given', async () => {
    const body = newUser();
    const res = await admin.post('/api/auth/create-user', body);
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json).toMatchObject({
      email: body.email,
      estatus: 'activo',
      idRol: role(H, 'asesor'),
    });
    const me = client(app, await login(app, body.email, PASSWORD));
    const session = (await me.get('/api/auth/session')).json;
    expect(session).toMatchObject({ corporativos: [H.id], esAdmin: false, tipo: 'Asesor' });
    expect(session.info.estatus).toBe('activo');
  });

  it('create-user refuses bad input with nothing written', async () => {
    await refused(
      () => admin.post('/api/auth/create-user', newUser({ password: 'corta1A' })),
      400,
      'WEAK_PASSWORD',
    );
    await refused(
      () => admin.post('/api/auth/create-user', newUser({ email: 'asesor@vitrina.demo' })),
      409,
      'EMAIL_TAKEN',
    );
    for (const extra of [
      { esAdmin: true },
      { roles: { [H.id]: role(H, 'admin') } },
      { corporativos: [P.id] },
    ])
      await refused(() => admin.post('/api/auth/create-user', newUser(extra)), 400, 'VALIDATION');
    // A phone is a phone, as a lead's (an outside probe found 'not a phone' stored); none is fine.
    for (const telefono of ['not a phone', '123', '+52 55 1234 5678 ext 9'])
      await refused(
        () => admin.post('/api/auth/create-user', newUser({ telefono })),
        400,
        'VALIDATION',
      );
    await refused(
      () =>
        admin.post('/api/usuarios/invitar', {
          ...newUser({ telefono: 'not a phone' }),
          password: undefined,
        }),
      400,
      'VALIDATION',
    );
    const phoned = await admin.post(
      '/api/auth/create-user',
      newUser({ telefono: '+52 55 1234 5678' }),
    );
    expect(phoned.status).toBe(201);
    expect(phoned.json.telefono).toBe('+52 55 1234 5678');
    await refused(
      () =>
        admin.put(`/api/users/${phoned.json.id}`, { id: phoned.json.id, telefono: 'not a phone' }),
      400,
      'VALIDATION',
    );
    // The manager edits users but does not create them.
    await refused(() => gerente.post('/api/auth/create-user', newUser()), 403);
    // A role of another corporate, or one that does not exist.
    await refused(
      () => admin.post('/api/auth/create-user', newUser({ idRol: role(P, 'asesor') })),
      403,
    );
    await refused(
      () => admin.post('/api/auth/create-user', newUser({ idCorporativo: 'nope' })),
      403,
    );
    const msg = await admin.post('/api/auth/create-user', newUser({ password: 'sinmayusculas1' }), {
      'accept-language': 'en',
    });
    expect(msg.json[0].message).toContain('uppercase');
  });

  it('PUT /api/users/:id by a manager: the role rule of spec §6, never above one’s own', async () => {
    const created = (await admin.post('/api/auth/create-user', newUser())).json;
    const put = (c: Client, body: Record<string, unknown>) =>
      c.put(`/api/users/${created.id}`, { id: created.id, ...body });
    // The manager gives an adviser the broker role (in their rolesAsignacion), and back.
    let res = await put(gerente, { roles: { [H.id]: role(H, 'broker') }, nombre: 'Paola' });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ idRol: role(H, 'broker'), nombre: 'Paola' });
    // fechaAlta and sesionUltima are stripped, not refused.
    res = await put(gerente, { fechaAlta: 1, sesionUltima: 2, apellidos: 'Ríos' });
    expect(res.status).toBe(200);
    expect(res.json.fechaAlta).toBe(created.fechaAlta);
    // Not the host administrator's role (above theirs), nor a manager's (not in the list).
    await refused(() => put(gerente, { roles: { [H.id]: role(H, 'hostes') } }), 403);
    await refused(() => put(gerente, { roles: { [H.id]: role(H, 'gerente') } }), 403);
    // The administrator (activarAdminUsuarios) gives any role of the corporate.
    res = await put(admin, { roles: { [H.id]: role(H, 'hostes') } });
    expect(res.json.idRol).toBe(role(H, 'hostes'));
    // Now a host administrator: above the manager, who may no longer edit them at all.
    await refused(() => put(gerente, { nombre: 'Otra' }), 403);
    await refused(
      () =>
        gerente.put(`/api/users/${ids['hostess@vitrina.demo']}`, {
          id: ids['hostess@vitrina.demo'],
          nombre: 'X',
        }),
      403,
    );
    // The spec's error without an id; privileged fields; someone of another corporate.
    const noId = await refused(
      () => admin.put(`/api/users/${created.id}`, { nombre: 'Sin id' }),
      400,
      'USER_WITHOUT_ID',
    );
    expect(noId.json[0].message).toBe('El usuario no tiene id');
    for (const extra of [
      { esAdmin: true },
      { corporativos: [P.id] },
      { roles2: { x: 'y' } },
      { email: 'otra@example.com' },
    ])
      await refused(() => put(admin, extra), 403);
    const pacificoId = ids['asesor.pacifico@vitrina.demo']!;
    await refused(
      () => gerente.put(`/api/users/${pacificoId}`, { id: pacificoId, nombre: 'X' }),
      404,
    );
    // Someone who manages no users: 403, whoever the other user is.
    await refused(
      () => asesor.put(`/api/users/${created.id}`, { id: created.id, nombre: 'X' }),
      403,
    );
  });

  it('aprobarRegistro and rolesAsignacion: only approvers and activarAdminUsuarios set them', async () => {
    const target = (await admin.post('/api/auth/create-user', newUser())).json;
    // A manager who is not an approver (aprobarRegistro false).
    const bossBody = newUser({ idRol: role(H, 'gerente'), rolesAsignacion: [role(H, 'asesor')] });
    const boss = (await admin.post('/api/auth/create-user', bossBody)).json;
    expect(boss.rolesAsignacion).toEqual([role(H, 'asesor')]);
    expect(boss.aprobarRegistro).toBe(false);
    const bossClient = client(app, await login(app, bossBody.email, PASSWORD));
    const put = (c: Client, body: Record<string, unknown>) =>
      c.put(`/api/users/${target.id}`, { id: target.id, ...body });
    await refused(() => put(bossClient, { aprobarRegistro: true }), 403);
    await refused(() => put(gerente, { rolesAsignacion: { [H.id]: [role(H, 'asesor')] } }), 403);
    expect((await put(bossClient, { nombre: 'Editada' })).status).toBe(200);
    // The demo manager is an approver; the administrator sets the lists.
    expect((await put(gerente, { aprobarRegistro: true })).json.aprobarRegistro).toBe(true);
    const res = await put(admin, { rolesAsignacion: { [H.id]: [role(H, 'broker')] } });
    expect(res.json.rolesAsignacion).toEqual([role(H, 'broker')]);
    // The non-approver manager cannot create an approver either.
    await refused(
      () => admin.post('/api/auth/create-user', newUser({ rolesAsignacion: ['nope'] })),
      400,
    );
  });

  it('deactivation: no sign-in, sessions end, leads and appointments go to another adviser in one step', async () => {
    const body = newUser();
    const x = (await admin.post('/api/auth/create-user', body)).json;
    const xClient = client(app, await login(app, body.email, PASSWORD));
    const lead = await xClient.post(`/api/corporativos/${H.id}/leads`, {
      nombre: 'Cliente',
      apellidos: 'De Paula',
      email: `cliente.${x.id.slice(-6)}@example.com`,
    });
    expect(lead.status, JSON.stringify(lead.json)).toBe(201);
    const leadId = lead.json.id as string;
    const devs = (await xClient.get(`/api/wsObtenerDesarrollos?idCorporativo=${H.id}`)).json;
    const showrooms = (await xClient.get(`/api/wsObtenerShowrooms?idCorporativo=${H.id}`)).json;
    const start = new Date(Date.now() + 3 * 86_400_000);
    start.setUTCHours(17, 0, 0, 0);
    const cita = await xClient.post(`/api/corporativos/${H.id}/citas`, {
      idDesarrollo: devs[0].id,
      idShowroom: showrooms[0].id,
      fechaInicio: start.toISOString(),
      fechaFin: new Date(start.getTime() + 3_600_000).toISOString(),
      titulo: 'Visita',
      idLead: leadId,
      idAsesor: x.id,
    });
    expect(cita.status, JSON.stringify(cita.json)).toBe(201);
    const deactivate = (c: Client, userId: string, payload: Record<string, unknown>) =>
      c.post(`/api/corporativos/${H.id}/usuarios/${userId}/desactivar`, payload);
    // Someone must receive the leads; not the user, not a host administrator, not a stranger.
    await refused(() => deactivate(admin, x.id, {}), 400, 'REASSIGN_TARGET_INVALID');
    await refused(() => deactivate(admin, x.id, { reasignarA: x.id }), 400);
    await refused(() => deactivate(admin, x.id, { reasignarA: ids['hostess@vitrina.demo'] }), 400);
    await refused(
      () => deactivate(admin, x.id, { reasignarA: ids['asesor.pacifico@vitrina.demo'] }),
      400,
    );
    await refused(() => deactivate(asesor, x.id, { reasignarA: ids['asesor@vitrina.demo'] }), 403);
    await refused(
      () => deactivate(admin, ids['admin@vitrina.demo']!, {}),
      409,
      'CANNOT_DEACTIVATE_SELF',
    );
    // The administrator is in both corporates: the manager of one may not end the account.
    await refused(() => deactivate(gerente, ids['admin@vitrina.demo']!, {}), 403);
    const res = await deactivate(gerente, x.id, { reasignarA: ids['asesor@vitrina.demo'] });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ leadsReasignados: 1, citasReasignadas: 1 });
    expect(res.json.usuario.estatus).toBe('inactivo');
    // The session is over and a new one is refused, even with the right password.
    expect((await xClient.get('/api/auth/session')).status).toBe(401);
    const again = await app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: body.email, password: PASSWORD }),
    });
    expect(again.status).toBe(403);
    expect(((await again.json()) as { errorCode: string }[])[0]!.errorCode).toBe('USER_INACTIVE');
    const moved = await asesor.get(`/api/corporativos/${H.id}/leads/${leadId}`);
    expect(moved.json.idVendedor).toBe(ids['asesor@vitrina.demo']);
    const citaNow = await asesor.get(`/api/corporativos/${H.id}/citas/${cita.json.id}`);
    expect(citaNow.json.idAsesor).toBe(ids['asesor@vitrina.demo']);
    expect(
      (await list(admin, H, { estatus: 'inactivo' })).json.usuarios.map(
        (u: { id: string }) => u.id,
      ),
    ).toEqual([x.id]);
    // Reactivated: signs in again.
    const back = await admin.post(`/api/corporativos/${H.id}/usuarios/${x.id}/reactivar`, {});
    expect(back.json.estatus).toBe('activo');
    expect(await login(app, body.email, PASSWORD)).toContain('=');
  });
});
