/**
 * `GET /api/users/:id` over-shared (issue 13, defect 8): a manager of grupo-horizonte saw the
 * administrator's role and favourite development in desarrollos-pacifico. Of another user a
 * caller sees only what belongs to the corporates both share; their own record in full.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Corporate, Development, User } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { describeBackends, openSeeded } from './support/backends';
import type { client } from './support/http';
import { signedIn } from './support/http';

type Client = ReturnType<typeof client>;

describeBackends('user records', (backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let admin: Client;
  let gerente: Client;
  let asesor: Client;
  const ids: Record<string, string> = {};
  let horizonte: Corporate;
  let pacifico: Corporate;

  beforeAll(async () => {
    rt = await openSeeded(backend);
    const app = createApp(rt.deps);
    admin = await signedIn(app, 'admin@vitrina.demo', ids);
    gerente = await signedIn(app, 'gerente@vitrina.demo', ids);
    asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    await signedIn(app, 'broker@vitrina.demo', ids);
    horizonte = (await admin.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json;
    pacifico = (await admin.get('/api/wsObtenerCorporativo?slug=desarrollos-pacifico')).json;
    // The administrator's favourites: a development in each corporate, and pacifico as favourite.
    const adminId = ids['admin@vitrina.demo']!;
    for (const corp of [horizonte, pacifico]) {
      const devs = (await admin.get(`/api/wsObtenerDesarrollos?idCorporativo=${corp.id}`))
        .json as Development[];
      const res = await admin.put(`/api/users/${adminId}/desarrollos-favoritos`, {
        idCorporativo: corp.id,
        idDesarrollo: devs[0]!.id,
      });
      expect(res.status).toBe(200);
    }
    expect(
      (
        await admin.put(`/api/users/${adminId}/corporativo-favorito`, {
          corporativoFavorito: pacifico.id,
        })
      ).status,
    ).toBe(200);
  });
  afterAll(async () => {
    await rt.dispose();
  });

  it('a manager of one corporate sees nothing of the administrator’s other corporate', async () => {
    const adminId = ids['admin@vitrina.demo']!;
    const res = await gerente.get(`/api/users/${adminId}`);
    expect(res.status).toBe(200);
    const seen = res.json as User;
    expect(JSON.stringify(seen)).not.toContain(pacifico.id);
    expect(Object.keys(seen.roles)).toEqual([horizonte.id]);
    expect(seen.corporativos).toEqual([horizonte.id]);
    expect(Object.keys(seen.desarrollosFavoritos)).toEqual([horizonte.id]);
    expect(seen.corporativoFavorito).toBeNull();
    expect(seen).not.toHaveProperty('esAdmin');
    expect(seen).not.toHaveProperty('tokens');
    expect(seen).toMatchObject({ id: adminId, email: 'admin@vitrina.demo', nombre: 'Ana' });
  });

  it('a registration pending in a corporate the manager is not in stays out too', async () => {
    const res = await gerente.get(`/api/users/${ids['broker@vitrina.demo']!}`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.json)).not.toContain(pacifico.id);
    expect(res.json.corporativos).toEqual([horizonte.id]);
  });

  it('the administrator sees both corporates of a user who is in both; everyone sees their own record in full', async () => {
    const broker = (await admin.get(`/api/users/${ids['broker@vitrina.demo']!}`)).json as User;
    expect(broker.corporativosRegistro).toEqual(expect.arrayContaining([pacifico.id]));
    expect(Object.keys(broker.roles).sort()).toEqual([horizonte.id, pacifico.id].sort());

    const own = (await admin.get(`/api/users/${ids['admin@vitrina.demo']!}`)).json as User;
    expect(own.esAdmin).toBe(true);
    expect(own.corporativoFavorito).toBe(pacifico.id);
    expect(Object.keys(own.desarrollosFavoritos).sort()).toEqual(
      [horizonte.id, pacifico.id].sort(),
    );
    expect(Object.keys(own.roles).sort()).toEqual([horizonte.id, pacifico.id].sort());
  });

  it('someone who manages no users sees no other record', async () => {
    expect((await asesor.get(`/api/users/${ids['admin@vitrina.demo']!}`)).status).toBe(404);
  });
});
