/**
 * The demo tenant as the route table's suites see it (matrix.test.ts, fuzz.test.ts): a seeded
 * store, every demo account signed in, each corporate's ids (a development on the web, a
 * cluster, units for changes, holds and quotes, a members-only document), a lead, a quotation
 * and a share link of every adviser who owns things, and the makers that prepare writes.
 */
import {
  mayAdministerShowrooms,
  mayManageUsers,
  roleInCorporate,
} from '../../../src/core/permissions';
import type { Corporate, Role, Showroom, User } from '../../../src/core/types';
import { createApp } from '../../../src/server/app';
import { DEMO_ACCOUNTS } from '../../../src/server/seed/demo';
import { registerBroker } from '../../../src/server/users/people';
import { openSeeded, type Backend } from './backends';
import { client, login } from './http';
import type { Makers, Person, Target, Tenant } from './route-table';

type Client = ReturnType<typeof client>;

export interface Account extends Person {
  cookie: string;
  client: Client;
  user: User;
}

/** What an owner (an adviser) has in their corporate from the start. */
interface Holdings {
  leadId: string;
  quotationId: string;
  shareToken: string;
  citaId: string;
}

export type Fixtures = Awaited<ReturnType<typeof openFixtures>>;

/** The advisers whose leads and quotations the suites aim at: two in H, one in P. */
export const OWNERS = {
  H: ['asesor@vitrina.demo', 'asesor2@vitrina.demo'],
  P: ['asesor.pacifico@vitrina.demo'],
} as const;

export async function openFixtures(backend: Backend) {
  const rt = await openSeeded(backend);
  const app = createApp(rt.deps);
  const db = rt.deps.db;
  const accounts = new Map<string, Account>();
  for (const { email } of DEMO_ACCOUNTS) {
    const cookie = await login(app, email);
    const c = client(app, cookie);
    const id = (await c.get('/api/auth/session')).json.id as string;
    const { rows } = await db.query<{ doc: User }>('SELECT doc FROM rm_users WHERE id = $1', [id]);
    accounts.set(email, { id, email, cookie, client: c, user: rows[0]!.doc });
  }
  const account = (email: string) => accounts.get(email)!;
  const admin = account('admin@vitrina.demo');

  type CorporateDoc = Corporate & { mediosContacto: string[]; showrooms?: Showroom[] };
  const corporates = new Map<string, CorporateDoc>();
  for (const { doc } of (await db.query<{ doc: CorporateDoc }>('SELECT doc FROM rm_corporates'))
    .rows) {
    corporates.set(doc.id, doc);
  }

  let seq = 0;
  const unique = () => `m${Date.now().toString(36)}${(seq += 1)}`;

  async function tenant(key: 'H' | 'P', slug: string): Promise<Tenant> {
    const corp = [...corporates.values()].find((c) => c.slug === slug)!;
    const devs = (await admin.client.get(`/api/wsObtenerDesarrollos?idCorporativo=${corp.id}`))
      .json as {
      id: string;
      slug: string;
      enWeb: boolean;
      divisa?: string;
      documentos: { id: string; titulo: string; idMedia: string }[];
    }[];
    for (const dev of devs.filter((d) => d.enWeb)) {
      const clusters = (
        await admin.client.get(
          `/api/wsObtenerClusters?idCorporativo=${corp.id}&idDesarrollo=${dev.id}`,
        )
      ).json as { id: string; unidades: { id: string; status: string }[] }[];
      for (const cluster of clusters) {
        const free = cluster.unidades.filter((u) => u.status === 'Disponible');
        if (free.length < 3) continue;
        const schemes = (
          await admin.client.get(
            `/api/wsObtenerEsquemasPago?idCorporativo=${corp.id}&idDesarrollo=${dev.id}&idCluster=${cluster.id}`,
          )
        ).json as { id: string; valido: boolean }[];
        const scheme = schemes.find((s) => s.valido);
        const document =
          dev.documentos.find((d) => d.titulo === 'Lista de precios') ?? dev.documentos[0];
        if (!scheme || !document) continue;
        const showroom = (corp.showrooms ?? []).find((s) => s.activo);
        if (!showroom) throw new Error(`${slug} has no active showroom`);
        return {
          key,
          id: corp.id,
          slug: corp.slug,
          devId: dev.id,
          devSlug: dev.slug,
          clusterId: cluster.id,
          schemeId: scheme.id,
          unitId: free[0]!.id,
          holdUnitId: free[1]!.id,
          quoteUnitId: free[2]!.id,
          documentId: document.id,
          documentMediaId: document.idMedia,
          divisa: dev.divisa ?? 'MXN',
          medio: corp.mediosContacto.includes('Sitio web') ? 'Sitio web' : corp.mediosContacto[0]!,
          showroom: {
            id: showroom.id,
            nombre: showroom.nombre,
            lat: showroom.coordenadas._latitude,
            lng: showroom.coordenadas._longitude,
          },
        };
      }
    }
    throw new Error(`no development of ${slug} fits the route table's fixtures`);
  }
  const tenants = {
    H: await tenant('H', 'grupo-horizonte'),
    P: await tenant('P', 'desarrollos-pacifico'),
  };

  /** Every lead and quotation made here, with who owns it and where. */
  const leadOwners = new Map<string, { tenant: 'H' | 'P'; owner: string }>();
  const quotationOwners = new Map<string, { tenant: 'H' | 'P'; owner: string }>();
  const citaOwners = new Map<string, { tenant: 'H' | 'P'; owner: string }>();

  const expectOk = (what: string, res: { status: number; json: unknown }) => {
    if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json as Record<string, unknown>;
  };

  const unitDoc = async (unitId: string) =>
    (
      await db.query<{ doc: { status: string; precio: number } }>(
        'SELECT doc FROM rm_units WHERE id = $1',
        [unitId],
      )
    ).rows[0]!.doc;

  function makers(res: Tenant, owner: Account, holdings: () => Holdings): Makers {
    const leads = `/api/corporativos/${res.id}/leads`;
    const units = `/api/corporativos/${res.id}/unidades`;
    const roleId = (suffix: string) =>
      corporates.get(res.id)!.roles.find((r) => r.id.endsWith(`-${suffix}`))!.id;
    const m: Makers = {
      unique,
      roleId,
      async member() {
        const made = expectOk(
          'make member',
          await admin.client.post('/api/auth/create-user', {
            idCorporativo: res.id,
            email: `${unique()}@example.com`,
            nombre: 'Miembro',
            apellidos: 'Nuevo',
            idRol: roleId('asesor'),
            password: 'Miembro2026Clave',
          }),
        );
        return made.id as string;
      },
      async invited() {
        const made = expectOk(
          'make invitation',
          await admin.client.post('/api/usuarios/invitar', {
            idCorporativo: res.id,
            email: `${unique()}@example.com`,
            nombre: 'Invitada',
            apellidos: 'Nueva',
            idRol: roleId('asesor'),
          }),
        );
        return (made.usuario as { id: string }).id;
      },
      async registration() {
        // Straight through the command (the public call is rate-limited per address).
        const user = await registerBroker(
          rt.deps,
          corporates.get(res.id)!,
          {
            email: `${unique()}@example.com`,
            nombre: 'Broker',
            apellidos: 'Pendiente',
            telefono: '+52 55 0000 0000',
            inmobiliaria: 'Agencia',
            idioma: 'es',
          },
          'not-a-hash',
        );
        return user.id;
      },
      async lead() {
        const u = unique();
        const lead = expectOk(
          'make lead',
          await owner.client.post(leads, {
            nombre: `Prueba ${u}`,
            email: `${u}@example.com`,
            medioContacto: 'Showroom',
          }),
        );
        leadOwners.set(lead.id as string, { tenant: res.key, owner: owner.id });
        return lead.id as string;
      },
      async note(leadId) {
        const note = expectOk(
          'make note',
          await owner.client.post(`${leads}/${leadId}/notas`, { nota: `Nota ${unique()}` }),
        );
        return note.key as string;
      },
      async leadDoc(leadId) {
        const { rows } = await db.query<{ doc: Record<string, unknown> }>(
          'SELECT doc FROM rm_leads WHERE id = $1',
          [leadId],
        );
        return rows[0]!.doc;
      },
      async unit(unitId) {
        const doc = await unitDoc(unitId);
        return { status: doc.status, precio: doc.precio };
      },
      async available(unitId) {
        const doc = await unitDoc(unitId);
        if (doc.status === 'Disponible') return;
        if (doc.status === 'Apartado') {
          expectOk('release', await admin.client.del(`${units}/${unitId}/apartado`));
        } else {
          expectOk(
            'make available',
            await admin.client.put(`${units}/${unitId}/status`, {
              status: 'Disponible',
              statusAnterior: doc.status,
            }),
          );
        }
      },
      async held(unitId) {
        await m.available(unitId);
        expectOk(
          'hold',
          await owner.client.post(`${units}/${unitId}/apartado`, {
            idLead: holdings().leadId,
            statusAnterior: 'Disponible',
          }),
        );
      },
      async quotation() {
        const q = expectOk(
          'make quotation',
          await owner.client.post(`/api/corporativos/${res.id}/cotizaciones`, {
            idUnidad: res.quoteUnitId,
            idEsquema: res.schemeId,
            divisa: res.divisa,
            idLead: holdings().leadId,
          }),
        );
        quotationOwners.set(q.id as string, { tenant: res.key, owner: owner.id });
        return q.id as string;
      },
      async appointment() {
        const start = new Date(Date.now() + 3 * 86_400_000);
        start.setUTCHours(15, 0, 0, 0);
        const cita = expectOk(
          'make appointment',
          await owner.client.post(`/api/corporativos/${res.id}/citas`, {
            idDesarrollo: res.devId,
            idShowroom: res.showroom.id,
            fechaInicio: start.toISOString(),
            fechaFin: new Date(start.getTime() + 3_600_000).toISOString(),
            titulo: `Cita ${unique()}`,
            idLead: holdings().leadId,
          }),
        );
        citaOwners.set(cita.id as string, { tenant: res.key, owner: owner.id });
        return cita.id as string;
      },
      async arrival() {
        const idLead = await m.lead();
        const { email } = (await m.leadDoc(idLead)) as { email: string };
        const start = new Date(Date.now() + 2 * 60_000);
        expectOk(
          'make arrival appointment',
          await owner.client.post(`/api/corporativos/${res.id}/citas`, {
            idDesarrollo: res.devId,
            idShowroom: res.showroom.id,
            fechaInicio: start.toISOString(),
            fechaFin: new Date(start.getTime() + 3_600_000).toISOString(),
            titulo: `Llegada ${unique()}`,
            idLead,
          }),
        );
        return email;
      },
      async calendarFeed() {
        const made = expectOk(
          'subscribe',
          await owner.client.post(`/api/corporativos/${res.id}/calendario/suscripcion`, {}),
        );
        return (made.url as string).split('/').at(-1)!;
      },
      async checkIn() {
        const made = expectOk(
          'check in',
          await owner.client.post(`/api/corporativos/${res.id}/check-ins`, {
            check: true,
            idShowroom: res.showroom.id,
            coordenadas: {
              _latitude: res.showroom.lat,
              _longitude: res.showroom.lng,
              _accuracy: 10,
            },
          }),
        );
        return made.id as string;
      },
      async guest() {
        const host = [...accounts.values()].find((a) => {
          const role = roleInCorporate(a.user, corporates.get(res.id)!);
          return a.user.corporativos.includes(res.id) && mayAdministerShowrooms(role);
        });
        if (!host) return `gst-${unique()}`;
        const made = expectOk(
          'invite',
          await host.client.post(
            `/api/corporativos/${res.id}/showrooms/${res.showroom.id}/invitados`,
            {
              nombre: `Invitado ${unique()}`,
              fechaVisita: '2026-12-01',
              idAsesor: owner.id,
            },
          ),
        );
        return made.id as string;
      },
      async share(quotationId) {
        const nonces = async () =>
          (
            await db.query<{ nonce: string }>(
              'SELECT nonce FROM rm_quotation_shares WHERE quotation_id = $1',
              [quotationId],
            )
          ).rows.map((r) => r.nonce);
        const before = new Set(await nonces());
        const made = expectOk(
          'share',
          await owner.client.post(
            `/api/corporativos/${res.id}/cotizaciones/${quotationId}/compartir`,
            {},
          ),
        );
        const nonce = (await nonces()).find((n) => !before.has(n))!;
        return { nonce, token: made.token as string };
      },
    };
    return m;
  }

  const holdings = new Map<string, Holdings>();
  for (const key of ['H', 'P'] as const) {
    for (const email of OWNERS[key]) {
      const owner = account(email);
      const make = makers(tenants[key], owner, () => holdings.get(owner.id)!);
      const leadId = await make.lead();
      holdings.set(owner.id, { leadId, quotationId: '', shareToken: '', citaId: '' });
      const quotationId = await make.quotation();
      const { token } = await make.share(quotationId);
      const citaId = await make.appointment();
      holdings.set(owner.id, { leadId, quotationId, shareToken: token, citaId });
    }
  }

  /** The caller's role in a corporate when an approved member, else null. */
  const roleOf = (caller: Person | null, corporateId: string): Role | null => {
    if (!caller) return null;
    const user = accounts.get(caller.email)!.user;
    const corporate = corporates.get(corporateId)!;
    if (!user.corporativos.includes(corporateId)) return null;
    return roleInCorporate(user, corporate) ?? null;
  };

  const managesUser = (a: Person, b: Person) => {
    const ua = accounts.get(a.email)!.user;
    const ub = accounts.get(b.email)!.user;
    return ua.corporativos.some(
      (c) =>
        (ub.corporativos.includes(c) || ub.corporativosRegistro.includes(c)) &&
        mayManageUsers(roleOf(a, c)),
    );
  };

  /** A target: the corporate named, whose ids, whose things, which user. */
  const target = (
    caller: Person | null,
    corp: 'H' | 'P',
    res: 'H' | 'P',
    ownerEmail: string,
    userEmail: string,
  ): Target => {
    const owner = account(ownerEmail);
    const held = holdings.get(owner.id)!;
    return {
      caller,
      corp: tenants[corp],
      res: tenants[res],
      owner: { id: owner.id, email: owner.email },
      leadId: held.leadId,
      quotationId: held.quotationId,
      shareToken: held.shareToken,
      citaId: held.citaId,
      user: { id: account(userEmail).id, email: userEmail },
      make: makers(tenants[res], owner, () => held),
    };
  };

  const eventCount = async () =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;

  return {
    rt,
    app,
    db,
    accounts,
    account,
    corporates,
    tenants,
    holdings,
    leadOwners,
    quotationOwners,
    citaOwners,
    roleOf,
    managesUser,
    target,
    eventCount,
    unique,
  };
}
