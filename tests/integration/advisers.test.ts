import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, login } from './support/http';

describeBackends('wsObtenerAsesores', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let corp: string;
  let pacificoCorp: string;

  beforeAll(async () => {
    rt = await openSeeded(backend);
    app = createApp(rt.deps);
    const admin = client(app, await login(app, 'admin@vitrina.demo'));
    corp = (await admin.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
    pacificoCorp = (await admin.get('/api/wsObtenerCorporativo?slug=desarrollos-pacifico')).json.id;
  });
  afterAll(() => rt.dispose());

  const as = async (email: string) => client(app, await login(app, email));

  it('lists the corporate members (no hostess) by name for a Todos role, with names only', async () => {
    const gerente = await as('gerente@vitrina.demo');
    const res = await gerente.get(`/api/wsObtenerAsesores?idCorporativo=${corp}`);
    expect(res.status).toBe(200);
    const names = (res.json as { nombre: string; apellidos: string }[]).map((a) => a.nombre);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const emails = JSON.stringify(res.json);
    expect(emails).not.toContain('@vitrina.demo');
    const asesor = await as('asesor@vitrina.demo');
    const me = (await asesor.get('/api/auth/session')).json.id as string;
    expect((res.json as { id: string }[]).map((a) => a.id)).toContain(me);
    const hostess = await as('hostess@vitrina.demo');
    const hostessId = (await hostess.get('/api/auth/session')).json.id as string;
    expect((res.json as { id: string }[]).map((a) => a.id)).not.toContain(hostessId);
    for (const a of res.json as object[])
      expect(Object.keys(a).sort()).toEqual(['apellidos', 'id', 'nombre']);
  });

  it('refuses Propios advisers (403) and non-members (403)', async () => {
    const asesor = await as('asesor@vitrina.demo');
    expect((await asesor.get(`/api/wsObtenerAsesores?idCorporativo=${corp}`)).status).toBe(403);
    expect((await asesor.get(`/api/wsObtenerAsesores?idCorporativo=${pacificoCorp}`)).status).toBe(
      403,
    );
    const anonymous = client(app);
    expect((await anonymous.get(`/api/wsObtenerAsesores?idCorporativo=${corp}`)).status).toBe(401);
  });
});
