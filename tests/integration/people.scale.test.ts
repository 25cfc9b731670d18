/**
 * Issue 16 on both backends: the users page holds thousands of users (pages, totals, search and
 * filters stay right with 3,000 members), and simultaneous writes of one person never make two
 * users: the same e-mail created, invited or registered at once gives one account.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Corporate, User } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import type { AppendRequest } from '../../src/server/store/event-store';
import { describeBackends, openSeeded } from './support/backends';
import { client, signedIn } from './support/http';

type Client = ReturnType<typeof client>;
const MANY = 3000;

describeBackends('people: thousands of users, simultaneous writes', (backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let admin: Client;
  const ids: Record<string, string> = {};
  let H: Corporate;
  let demoMembers = 0;
  const role = (suffix: string) => H.roles.find((r) => r.id.endsWith(`-${suffix}`))!.id;

  beforeAll(async () => {
    rt = await openSeeded(backend);
    app = createApp(rt.deps);
    admin = await signedIn(app, 'admin@vitrina.demo', ids);
    H = (await admin.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json;
    demoMembers = (await admin.get(`/api/users/indices/users?corporateId=${H.id}`)).json.total;
    // Thousands of members straight into the log (the seed's way), in a few appends.
    const requests: AppendRequest[] = [];
    for (let i = 0; i < MANY; i++) {
      const id = `usr-scale-${String(i).padStart(5, '0')}`;
      const user: User = {
        id,
        email: `persona${i}@escala.example`,
        nombre: `Persona ${String(i).padStart(5, '0')}`,
        apellidos: i % 3 === 0 ? 'Gómez' : 'Ruiz',
        corporativos: [],
        corporativosRegistro: [],
        corporativoFavorito: null,
        desarrollosFavoritos: {},
        roles: {},
        fechaAlta: 1_767_571_200,
        sesionUltima: null,
        esAdmin: false,
        info: { estatus: i % 10 === 0 ? 'inactivo' : 'activo' },
      };
      requests.push({
        streamId: `user:${id}`,
        expectedVersion: 0,
        events: [
          {
            id: randomUUID(),
            type: 'UserRegistered',
            data: { user, passwordHash: null },
            occurredAt: new Date(),
          },
          {
            id: randomUUID(),
            type: 'MembershipGranted',
            data: {
              idUsuario: id,
              idCorporativo: H.id,
              idRol: i % 2 === 0 ? role('asesor') : role('broker'),
              aprobado: true,
            },
            corporateId: H.id,
            occurredAt: new Date(),
          },
        ],
      });
    }
    for (let i = 0; i < requests.length; i += 500)
      await rt.deps.store.appendMany(requests.slice(i, i + 500));
  }, 300_000);
  afterAll(async () => {
    await rt.dispose();
  });

  const list = (params: Record<string, string>) =>
    admin.get(`/api/users/indices/users?${new URLSearchParams({ corporateId: H.id, ...params })}`);

  it('pages through thousands: every member once, in name order, with the total', async () => {
    const first = await list({ porPagina: '100' });
    expect(first.json.total).toBe(MANY + demoMembers);
    const seen = new Set<string>();
    let previous = '';
    const pages = Math.ceil(first.json.total / 100);
    for (let p = 1; p <= pages; p++) {
      const page = p === 1 ? first : await list({ porPagina: '100', pagina: String(p) });
      expect(page.status).toBe(200);
      for (const u of page.json.usuarios as { id: string; nombre: string }[]) {
        expect(seen.has(u.id)).toBe(false);
        seen.add(u.id);
        const key = u.nombre.toLowerCase();
        expect(key >= previous).toBe(true);
        previous = key;
      }
    }
    expect(seen.size).toBe(MANY + demoMembers);
  });

  it('filters and searches among them', async () => {
    expect(
      (await list({ q: 'persona 00123' })).json.usuarios.map((u: { id: string }) => u.id),
    ).toEqual(['usr-scale-00123']);
    expect((await list({ q: 'GÓMEZ' })).json.total).toBe(MANY / 3);
    expect((await list({ estatus: 'inactivo' })).json.total).toBe(MANY / 10);
    expect((await list({ rol: role('broker') })).json.total).toBe(MANY / 2 + 1); // + the demo broker
    expect((await list({ rol: role('asesor'), estatus: 'inactivo', q: 'ruiz' })).json.total).toBe(
      // i even, i % 10 === 0, i % 3 !== 0
      [...Array(MANY).keys()].filter((i) => i % 10 === 0 && i % 3 !== 0).length,
    );
  });

  it('the same e-mail created, invited and registered at once: one account', async () => {
    const email = 'a.la.vez@example.com';
    const body = {
      idCorporativo: H.id,
      email,
      nombre: 'A la',
      apellidos: 'Vez',
      idRol: role('asesor'),
    };
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () =>
        admin.post('/api/auth/create-user', { ...body, password: 'Simultanea2026' }),
      ),
      ...Array.from({ length: 4 }, () => admin.post('/api/usuarios/invitar', body)),
      ...Array.from({ length: 2 }, () =>
        client(app).post('/api/solicitudes-usuarios/registrar', {
          slug: H.slug,
          nombre: 'A la',
          apellidos: 'Vez',
          email,
          telefono: '+52 55 1111 2222',
          password: 'Simultanea2026',
          inmobiliaria: 'OTRO',
          inmobiliariaOtra: 'Sola',
        }),
      ),
    ]);
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    // One call makes the account. An invitation that comes after a broker's registration is
    // not a second account: it approves that pending registration (201, `existente: true`),
    // and only then; every later call finds a member and gets 409.
    const created = results.filter(
      (r, i) => r.status === 201 && !(i >= 4 && i < 8 && r.json?.existente === true),
    );
    expect(created).toHaveLength(1);
    const approvals = results.filter((r, i) => i >= 4 && i < 8 && r.json?.existente === true);
    const registered = results.slice(8).some((r) => r.status === 201);
    expect(approvals.length).toBe(registered ? 1 : 0);
    const { rows } = await rt.deps.db.query('SELECT id FROM rm_users WHERE email = $1', [email]);
    expect(rows).toHaveLength(1);
  });

  it('a broker registered first, then invited four times at once: one approval, three 409', async () => {
    const email = 'primero.registro@example.com';
    const reg = await client(app).post('/api/solicitudes-usuarios/registrar', {
      slug: H.slug,
      nombre: 'Primero',
      apellidos: 'Registro',
      email,
      telefono: '+52 55 3333 4444',
      password: 'Simultanea2026',
      inmobiliaria: 'OTRO',
      inmobiliariaOtra: 'Sola',
    });
    expect(reg.status).toBe(201);
    const invites = await Promise.all(
      Array.from({ length: 4 }, () =>
        admin.post('/api/usuarios/invitar', {
          idCorporativo: H.id,
          email,
          nombre: 'Primero',
          apellidos: 'Registro',
          idRol: role('asesor'),
        }),
      ),
    );
    expect(invites.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect(invites.find((r) => r.status === 201)!.json.existente).toBe(true);
    const { rows } = await rt.deps.db.query('SELECT id FROM rm_users WHERE email = $1', [email]);
    expect(rows).toHaveLength(1);
  });
});
