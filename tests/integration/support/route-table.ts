/**
 * Every API route, once (issue 13): who may call it, whether it reads or writes, which of the
 * fixtures' ids it carries and how a request to it is filled. The tenant and role matrix
 * (matrix.test.ts) and the fuzz suite (fuzz.test.ts) are generated from this table, and
 * matrix.test.ts checks it against the routes the Hono app really serves (`app.routes`): a route
 * that is served but not declared here fails, so a new route joins both suites by being added.
 *
 * What a row declares:
 * - `access`: `public` (anyone, signed out included), `session` (any signed-in user; the answer is
 *   their own), `self` (a signed-in user acting on their own user record: the `user` slot),
 *   `member` (an approved member of the corporate the request names), `operator` (a platform
 *   administrator: core/permissions.ts `mayOperate`).
 * - `role`: what the caller's role in that corporate must allow besides membership.
 * - `slots`: which fixture ids the request carries. `corp`: a corporate (its id or slug);
 *   `resource`: ids of things inside a corporate (a development, a unit, a lead…), which the
 *   matrix also fills with the other corporate's ids; `owner`: the thing belongs to an adviser
 *   (a lead, a quotation, a hold), so a 'Propios' role reaches only its own; `user`: a user id.
 * - `allow`: the rule where it is more than the above (it replaces the default rule, `role`
 *   included).
 * - `foreignIsEmpty`: a read that answers an empty list (or `null`), not an error, for ids of
 *   another corporate or to a caller out of reach; the matrix then accepts a 2xx that carries
 *   nothing (the session check answers a signed-out visitor `null`).
 * - `refusedFill`: why the filled request is an error even for a caller who may make it (the
 *   matrix then expects no 2xx from it).
 * - `scopeOf`: the roles that reach every adviser's things on this route (default 'Todos').
 * - `fill`: the request for one target (see {@link Target}); it may prepare what a write needs
 *   (a fresh lead to delete, a hold to release) through `t.make`, before the event count is read.
 */
import { randomUUID } from 'node:crypto';
import { mayAdministerContent } from '../../../src/core/featured';
import {
  mayCreateUsers,
  mayEditUsers,
  mayManageUsers,
  administersInventory,
  isHostAdmin,
  mayAssignLeads,
  mayExtendHold,
  mayGenerateQuoteReport,
  mayListAdvisers,
  mayActOnCheckInOf,
  mayAdministerShowrooms,
  mayCheckIn,
  mayBookAppointmentFor,
  mayConfigureChat,
  mayConfigureCrm,
  mayMergeLeads,
  maySendNotifications,
  seesAllAppointments,
  seesAllLeads,
} from '../../../src/core/permissions';
import { mayEditLegalData } from '../../../src/core/legal-data';
import type { Role } from '../../../src/core/types';
import { DEMO_ENGLISH_LABELS } from '../../../src/server/seed/labels';

export type Access = 'public' | 'session' | 'self' | 'member' | 'operator';
export type Kind = 'read' | 'write' | 'stream';
export type Slot = 'corp' | 'resource' | 'owner' | 'user';

/** One demo corporate's ids, as the fixtures found them. */
export interface Tenant {
  key: 'H' | 'P';
  id: string;
  slug: string;
  /** A development published in the app and on the web. */
  devId: string;
  devSlug: string;
  clusterId: string;
  /** A scheme of the development valid for the cluster. */
  schemeId: string;
  /** Disponible units of the cluster: one for status and price changes, one for holds, one to quote. */
  unitId: string;
  holdUnitId: string;
  quoteUnitId: string;
  documentId: string;
  /** The media of a members-only document ("Lista de precios"). */
  documentMediaId: string;
  /** A currency the corporate quotes in. */
  divisa: string;
  /** A medium of the public capture. */
  medio: string;
  /** An active showroom: its id, name and where it is. */
  showroom: { id: string; nombre: string; lat: number; lng: number };
}

export interface Person {
  id: string;
  email: string;
}

/** Writes a fill may need first; each runs as the target's owner (or an administrator). */
export interface Makers {
  /** A new lead of the target's owner in the resource tenant. */
  lead(): Promise<string>;
  /** A note on the lead, by the owner: its key. */
  note(leadId: string): Promise<string>;
  /** The lead as stored (for `leadAnterior`). */
  leadDoc(leadId: string): Promise<Record<string, unknown>>;
  /** A unit's status and price now. */
  unit(unitId: string): Promise<{ status: string; precio: number }>;
  /** The unit 'Disponible' (a hold released, a status put back), by an administrator. */
  available(unitId: string): Promise<void>;
  /** The unit held for the owner's lead, by the owner. */
  held(unitId: string): Promise<void>;
  /** A new quotation of the owner for their lead. */
  quotation(): Promise<string>;
  /** A new share link of the owner's quotation: its nonce and token. */
  share(quotationId: string): Promise<{ nonce: string; token: string }>;
  /** The owner's check-in in effect at the resource tenant's showroom: its id. */
  checkIn(): Promise<string>;
  /** A guest of the resource tenant's showroom, invited by its host administrator (a made-up id
   * where the corporate has none, so the call is a 404 for everyone). */
  guest(): Promise<string>;
  /** A new appointment of the owner with their lead at the resource tenant's showroom. */
  appointment(): Promise<string>;
  /** A new lead of the owner with an appointment starting in two minutes: the lead's e-mail. */
  arrival(): Promise<string>;
  /** A new private calendar feed of the owner in the resource tenant: its `<token>.ics`. */
  calendarFeed(): Promise<string>;
  /** A string no other call used (emails, names). */
  unique(): string;
  /** The resource tenant's role id with this suffix (`asesor`, `broker`, …). */
  roleId(suffix: string): string;
  /** A new active adviser of the resource tenant (people, issue 16): their id. */
  member(): Promise<string>;
  /** A new person invited to the resource tenant, who has not set a password: their id. */
  invited(): Promise<string>;
  /** A new broker whose registration waits in the resource tenant: their id. */
  registration(): Promise<string>;
}

/** What one request of the matrix names. */
export interface Target {
  caller: Person | null;
  /** The corporate the request names. */
  corp: Tenant;
  /** The corporate whose ids it carries (the other one in a cross-tenant variant). */
  res: Tenant;
  /** The adviser who owns the lead, the quotation or the hold. */
  owner: Person;
  /** A lead and a quotation of `owner` in `res` (seeded once; reads use them). */
  leadId: string;
  quotationId: string;
  /** A share token of that quotation. */
  shareToken: string;
  /** An appointment of `owner` with that lead. */
  citaId: string;
  /** The user a user route names. */
  user: Person;
  make: Makers;
}

export interface Req {
  path: string;
  /** JSON (an object) or raw text (a string, sent as `type`, default text/csv). */
  body?: unknown;
  type?: string;
}

/** What the default rule and `allow` see. */
export interface AllowArgs {
  caller: Person;
  /** The caller's role in `corp` when an approved member, else null. */
  role: Role | null;
  t: Target;
  /** Whether `a` may manage `b`'s user record (a shared corporate where `a` manages users). */
  managesUser(a: Person, b: Person): boolean;
  /** Whether the caller is a platform administrator (`mayOperate`). */
  operates: boolean;
}

export interface RouteSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** As Hono lists it, `/api/...` with `:params`. */
  path: string;
  access: Access;
  role?: (role: Role) => boolean;
  slots: Slot[];
  kind: Kind;
  allow?: (a: AllowArgs) => boolean;
  foreignIsEmpty?: boolean;
  /** The caller signs in again for this call (logout ends the session it is sent with). */
  freshSession?: boolean;
  refusedFill?: string;
  /**
   * The roles that reach every adviser's things on this route (default: `seesAllLeads`, the
   * 'Todos' scope); everyone else only their own (the `owner` slot) and, in a 2xx, nothing of
   * another adviser's leads, quotations or appointments.
   */
  scopeOf?: (role: Role) => boolean;
  /** The body is JSON described by a zod schema the fuzz suite mutates. */
  json?: boolean;
  fill(t: Target): Req | Promise<Req>;
}

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
const corpQ = (t: Target) => q({ idCorporativo: t.corp.id });
const leadsOf = (t: Target) => `/api/corporativos/${t.corp.id}/leads`;
const unitsOf = (t: Target) => `/api/corporativos/${t.corp.id}/unidades`;
const quotesOf = (t: Target) => `/api/corporativos/${t.corp.id}/cotizaciones`;
const member = (a: AllowArgs) => a.role !== null;
const sameTenant = (t: Target) => t.corp.key === t.res.key;

/** A day `n` days from now as `YYYY-MM-DD` (the suites run on the real clock). */
const dayFromNow = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** An hour's visit with the owner's lead at the resource tenant's showroom, days ahead. */
function appointmentBody(t: Target) {
  const start = new Date(Date.now() + 3 * 86_400_000);
  start.setUTCHours(17, 0, 0, 0);
  return {
    idDesarrollo: t.res.devId,
    idShowroom: t.res.showroom.id,
    fechaInicio: start.toISOString(),
    fechaFin: new Date(start.getTime() + 3_600_000).toISOString(),
    titulo: 'Visita al showroom',
    idLead: t.leadId,
    idAsesor: t.owner.id,
  };
}

const CSV_HEADER =
  'tipo,clave,cluster,prototipo,nivel,posicion,status,precio,recamaras,banios,baniosMedios,cajones,areaTotal';

export const ROUTES: RouteSpec[] = [
  // ------------------------------------------------------------------ auth
  {
    method: 'POST',
    path: '/api/auth/login',
    access: 'public',
    slots: [],
    kind: 'write',
    json: true,
    refusedFill: 'a wrong password, so that the demo accounts are not throttled',
    // A wrong password for an unknown account: the throttle of the demo accounts stays clean.
    fill: (t) => ({
      path: '/api/auth/login',
      body: { email: `${t.make.unique()}@example.com`, password: 'wrong' },
    }),
  },
  {
    method: 'GET',
    path: '/api/auth/session',
    access: 'session',
    slots: [],
    kind: 'read',
    foreignIsEmpty: true,
    fill: () => ({ path: '/api/auth/session' }),
  },
  {
    method: 'POST',
    path: '/api/auth/logout',
    access: 'public',
    slots: [],
    kind: 'write',
    freshSession: true,
    fill: () => ({ path: '/api/auth/logout', body: {} }),
  },
  // The sign-in provider (issue 22): the client's run-time setting, and the Firebase exchange.
  {
    method: 'GET',
    path: '/api/auth/proveedor',
    access: 'public',
    slots: [],
    kind: 'read',
    fill: () => ({ path: '/api/auth/proveedor' }),
  },
  {
    method: 'POST',
    path: '/api/auth/firebase',
    access: 'public',
    slots: [],
    kind: 'write',
    json: true,
    refusedFill:
      'the matrix runs the builtin provider (404 FIREBASE_DISABLED); under firebase a made-up token is 401',
    fill: () => ({ path: '/api/auth/firebase', body: { idToken: 'a.b.c' } }),
  },
  // ------------------------------------------------------------------ users
  {
    method: 'GET',
    path: '/api/wsObtenerUsuario',
    access: 'self',
    slots: ['user'],
    kind: 'read',
    fill: (t) => ({ path: `/api/wsObtenerUsuario?${q({ id: t.user.id })}` }),
  },
  {
    method: 'GET',
    path: '/api/users/:id',
    access: 'self',
    slots: ['user'],
    kind: 'read',
    // Another user's record only for someone who manages users in a corporate they share.
    allow: (a) => a.t.user.id === a.caller.id || a.managesUser(a.caller, a.t.user),
    fill: (t) => ({ path: `/api/users/${t.user.id}` }),
  },
  {
    method: 'PUT',
    path: '/api/users/:id',
    access: 'self',
    slots: ['user'],
    kind: 'write',
    json: true,
    // Another user's record for a manager of a corporate both share (issue 16; the demo's
    // managers may assign the adviser's role, so they may edit the advisers).
    allow: (a) => a.t.user.id === a.caller.id || a.managesUser(a.caller, a.t.user),
    fill: (t) => ({
      path: `/api/users/${t.user.id}`,
      body: { id: t.user.id, apellidos: `Prueba ${t.make.unique()}` },
    }),
  },
  {
    method: 'POST',
    path: '/api/users/:id/ultima-sesion',
    access: 'self',
    slots: ['user'],
    kind: 'write',
    fill: (t) => ({ path: `/api/users/${t.user.id}/ultima-sesion`, body: {} }),
  },
  {
    method: 'PUT',
    path: '/api/users/:id/corporativo-favorito',
    access: 'self',
    slots: ['user', 'corp'],
    kind: 'write',
    json: true,
    allow: (a) => a.t.user.id === a.caller.id && member(a),
    fill: (t) => ({
      path: `/api/users/${t.user.id}/corporativo-favorito`,
      body: { corporativoFavorito: t.corp.id },
    }),
  },
  {
    method: 'PUT',
    path: '/api/users/:id/desarrollos-favoritos',
    access: 'self',
    slots: ['user', 'corp', 'resource'],
    kind: 'write',
    json: true,
    allow: (a) => a.t.user.id === a.caller.id && member(a) && sameTenant(a.t),
    fill: (t) => ({
      path: `/api/users/${t.user.id}/desarrollos-favoritos`,
      body: { idCorporativo: t.corp.id, idDesarrollo: t.res.devId },
    }),
  },
  {
    method: 'GET',
    path: '/api/wsObtenerAsesores',
    access: 'member',
    role: mayListAdvisers,
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/wsObtenerAsesores?${corpQ(t)}` }),
  },
  // ------------------------------------------------------------------ people (issue 16)
  {
    method: 'GET',
    path: '/api/users/indices/users',
    access: 'member',
    role: mayManageUsers,
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/users/indices/users?${q({ corporateId: t.corp.id })}` }),
  },
  {
    method: 'GET',
    path: '/api/users/indices/users-register-approver/:id',
    access: 'self',
    slots: ['user'],
    kind: 'read',
    fill: (t) => ({ path: `/api/users/indices/users-register-approver/${t.user.id}` }),
  },
  {
    method: 'POST',
    path: '/api/auth/create-user',
    access: 'member',
    role: mayCreateUsers,
    slots: ['corp'],
    kind: 'write',
    json: true,
    fill: (t) => ({
      path: '/api/auth/create-user',
      body: {
        idCorporativo: t.corp.id,
        email: `${t.make.unique()}@example.com`,
        nombre: 'Persona',
        apellidos: 'Nueva',
        idRol: t.make.roleId('asesor'),
        password: 'Creada2026Clave',
      },
    }),
  },
  {
    method: 'POST',
    path: '/api/usuarios/invitar',
    access: 'member',
    role: mayCreateUsers,
    slots: ['corp'],
    kind: 'write',
    json: true,
    fill: (t) => ({
      path: '/api/usuarios/invitar',
      body: {
        idCorporativo: t.corp.id,
        email: `${t.make.unique()}@example.com`,
        nombre: 'Persona',
        apellidos: 'Invitada',
        idRol: t.make.roleId('asesor'),
      },
    }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/invitaciones/:userId/reenviar',
    access: 'member',
    role: mayCreateUsers,
    slots: ['corp', 'resource'],
    kind: 'write',
    fill: async (t) => ({
      path: `/api/corporativos/${t.corp.id}/invitaciones/${await t.make.invited()}/reenviar`,
      body: {},
    }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/invitaciones/:userId/revocar',
    access: 'member',
    role: mayCreateUsers,
    slots: ['corp', 'resource'],
    kind: 'write',
    fill: async (t) => ({
      path: `/api/corporativos/${t.corp.id}/invitaciones/${await t.make.invited()}/revocar`,
      body: {},
    }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/usuarios/:userId/desactivar',
    access: 'member',
    role: mayEditUsers,
    slots: ['corp', 'resource'],
    kind: 'write',
    json: true,
    fill: async (t) => ({
      path: `/api/corporativos/${t.corp.id}/usuarios/${await t.make.member()}/desactivar`,
      body: {},
    }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/usuarios/:userId/reactivar',
    access: 'member',
    role: mayEditUsers,
    slots: ['corp', 'resource'],
    kind: 'write',
    fill: async (t) => ({
      path: `/api/corporativos/${t.corp.id}/usuarios/${await t.make.member()}/reactivar`,
      body: {},
    }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/solicitudes/:userId/aprobar',
    access: 'member',
    // Approvers: aprobarRegistro and a role that manages users; every demo manager has the flag.
    role: mayManageUsers,
    slots: ['corp', 'resource'],
    kind: 'write',
    json: true,
    fill: async (t) => ({
      path: `/api/corporativos/${t.corp.id}/solicitudes/${await t.make.registration()}/aprobar`,
      body: {},
    }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/solicitudes/:userId/rechazar',
    access: 'member',
    role: mayManageUsers,
    slots: ['corp', 'resource'],
    kind: 'write',
    json: true,
    fill: async (t) => ({
      path: `/api/corporativos/${t.corp.id}/solicitudes/${await t.make.registration()}/rechazar`,
      body: { motivo: 'Sin contrato con el corporativo' },
    }),
  },
  {
    method: 'POST',
    path: '/api/auth/recover-password',
    access: 'public',
    slots: [],
    kind: 'write',
    json: true,
    // Unknown addresses: the answer is the same as for a known one, and no demo account is mailed.
    fill: (t) => ({
      path: '/api/auth/recover-password',
      body: { email: `${t.make.unique()}@example.com` },
    }),
  },
  {
    method: 'GET',
    path: '/api/auth/enlace',
    access: 'public',
    slots: [],
    kind: 'read',
    refusedFill: 'a made-up token',
    fill: () => ({ path: `/api/auth/enlace?${q({ tipo: 'invitacion', token: 'x'.repeat(43) })}` }),
  },
  {
    method: 'POST',
    path: '/api/auth/restablecer-contrasena',
    access: 'public',
    slots: [],
    kind: 'write',
    json: true,
    refusedFill: 'a made-up token',
    fill: () => ({
      path: '/api/auth/restablecer-contrasena',
      body: { token: 'x'.repeat(43), password: 'Nueva2026Clave' },
    }),
  },
  {
    method: 'POST',
    path: '/api/auth/aceptar-invitacion',
    access: 'public',
    slots: [],
    kind: 'write',
    json: true,
    refusedFill: 'a made-up token',
    fill: () => ({
      path: '/api/auth/aceptar-invitacion',
      body: { token: 'x'.repeat(43), password: 'Nueva2026Clave' },
    }),
  },
  {
    method: 'GET',
    path: '/api/public/registro/:slug',
    access: 'public',
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/public/registro/${t.corp.slug}` }),
  },
  {
    method: 'POST',
    path: '/api/solicitudes-usuarios/registrar',
    access: 'public',
    slots: ['corp'],
    kind: 'write',
    json: true,
    fill: (t) => ({
      path: '/api/solicitudes-usuarios/registrar',
      body: {
        slug: t.corp.slug,
        nombre: 'Bruna',
        apellidos: 'Solís',
        email: `${t.make.unique()}@example.com`,
        telefono: '+52 55 1234 5678',
        password: 'Broker2026Clave',
        inmobiliaria: 'OTRO',
        inmobiliariaOtra: 'Agencia Independiente',
      },
    }),
  },
  // ------------------------------------------------------------------ catalogue
  {
    method: 'GET',
    path: '/api/wsObtenerConfiguracionesGenerales',
    access: 'public',
    slots: [],
    kind: 'read',
    fill: () => ({ path: '/api/wsObtenerConfiguracionesGenerales' }),
  },
  {
    method: 'GET',
    path: '/api/wsObtenerCorporativos',
    access: 'session',
    slots: [],
    kind: 'read',
    fill: () => ({ path: '/api/wsObtenerCorporativos' }),
  },
  {
    method: 'GET',
    path: '/api/wsObtenerCorporativo',
    access: 'member',
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/wsObtenerCorporativo?${q({ id: t.corp.id })}` }),
  },
  ...(
    [
      'wsObtenerColoresCorporativo',
      'wsObtenerShowrooms',
      'wsObtenerStatusLeads',
      'wsObtenerTagsBusqueda',
      'wsObtenerTagsBusquedaCategoria',
      'wsObtenerDesarrollos',
    ] as const
  ).map((name): RouteSpec => ({
    method: 'GET',
    path: `/api/${name}`,
    access: 'member',
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/${name}?${corpQ(t)}` }),
  })),
  {
    method: 'GET',
    path: '/api/wsObtenerDesarrollo',
    access: 'member',
    slots: ['corp', 'resource'],
    kind: 'read',
    fill: (t) => ({
      path: `/api/wsObtenerDesarrollo?${q({ idCorporativo: t.corp.id, slug: t.res.devSlug })}`,
    }),
  },
  {
    method: 'GET',
    path: '/api/wsObtenerClusters',
    access: 'member',
    slots: ['corp', 'resource'],
    kind: 'read',
    fill: (t) => ({
      path: `/api/wsObtenerClusters?${q({ idCorporativo: t.corp.id, idDesarrollo: t.res.devId })}`,
    }),
  },
  {
    method: 'GET',
    path: '/api/wsObtenerPrototipos',
    access: 'member',
    slots: ['corp', 'resource'],
    kind: 'read',
    foreignIsEmpty: true,
    fill: (t) => ({
      path: `/api/wsObtenerPrototipos?${q({ idCorporativo: t.corp.id, idDesarrollo: t.res.devId })}`,
    }),
  },
  {
    method: 'GET',
    path: '/api/corporativos/:c/desarrollos/:d/clusters/:cl',
    access: 'member',
    slots: ['corp', 'resource'],
    kind: 'read',
    fill: (t) => ({
      path: `/api/corporativos/${t.corp.id}/desarrollos/${t.res.devId}/clusters/${t.res.clusterId}`,
    }),
  },
  {
    method: 'GET',
    path: '/api/wsObtenerMedias',
    access: 'member',
    slots: ['resource'],
    kind: 'read',
    // A members-only document's media: members of the corporate that owns it (issue 13, defect 3).
    fill: (t) => ({ path: `/api/wsObtenerMedias?${q({ id: t.res.documentMediaId })}` }),
  },
  {
    method: 'GET',
    path: '/api/media/:id',
    access: 'member',
    slots: ['resource'],
    kind: 'read',
    fill: (t) => ({ path: `/api/media/${t.res.documentMediaId}` }),
  },
  {
    method: 'GET',
    path: '/api/wsObtenerDocumento',
    access: 'member',
    slots: ['corp', 'resource'],
    kind: 'read',
    fill: (t) => ({
      path: `/api/wsObtenerDocumento?${q({
        idCorporativo: t.corp.id,
        idDesarrollo: t.res.devId,
        idDocumento: t.res.documentId,
      })}`,
    }),
  },
  // ------------------------------------------------------------------ inventory
  {
    method: 'PUT',
    path: '/api/corporativos/:c/unidades/:u/status',
    access: 'member',
    role: administersInventory,
    slots: ['corp', 'resource'],
    kind: 'write',
    json: true,
    fill: async (t) => {
      const unit = await t.make.unit(t.res.unitId);
      return {
        path: `${unitsOf(t)}/${t.res.unitId}/status`,
        body: {
          status: unit.status === 'Bloqueado' ? 'Disponible' : 'Bloqueado',
          statusAnterior: unit.status,
        },
      };
    },
  },
  {
    method: 'PUT',
    path: '/api/corporativos/:c/unidades/:u/precio',
    access: 'member',
    role: administersInventory,
    slots: ['corp', 'resource'],
    kind: 'write',
    json: true,
    fill: async (t) => {
      const unit = await t.make.unit(t.res.unitId);
      return {
        path: `${unitsOf(t)}/${t.res.unitId}/precio`,
        body: { precio: unit.precio + 1000, precioAnterior: unit.precio },
      };
    },
  },
  {
    method: 'POST',
    path: '/api/corporativos/:c/unidades/:u/apartado',
    access: 'member',
    role: (r) => !isHostAdmin(r),
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    json: true,
    fill: async (t) => {
      await t.make.available(t.res.holdUnitId);
      return {
        path: `${unitsOf(t)}/${t.res.holdUnitId}/apartado`,
        body: { idLead: t.leadId, statusAnterior: 'Disponible' },
      };
    },
  },
  {
    method: 'PUT',
    path: '/api/corporativos/:c/unidades/:u/apartado',
    access: 'member',
    role: mayExtendHold,
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    json: true,
    fill: async (t) => {
      await t.make.held(t.res.holdUnitId);
      return { path: `${unitsOf(t)}/${t.res.holdUnitId}/apartado`, body: { horas: 48 } };
    },
  },
  {
    method: 'DELETE',
    path: '/api/corporativos/:c/unidades/:u/apartado',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    // Its holder (the owner) or a manager of holds.
    allow: (a) =>
      member(a) && sameTenant(a.t) && (a.t.owner.id === a.caller.id || mayExtendHold(a.role!)),
    fill: async (t) => {
      await t.make.held(t.res.holdUnitId);
      return { path: `${unitsOf(t)}/${t.res.holdUnitId}/apartado` };
    },
  },
  {
    method: 'GET',
    path: '/api/corporativos/:c/unidades/:u/historial',
    access: 'member',
    slots: ['corp', 'resource'],
    kind: 'read',
    fill: (t) => ({ path: `${unitsOf(t)}/${t.res.unitId}/historial` }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:c/desarrollos/:d/importar',
    access: 'member',
    role: administersInventory,
    slots: ['corp', 'resource'],
    kind: 'write',
    fill: (t) => ({
      path: `/api/corporativos/${t.corp.id}/desarrollos/${t.res.devId}/importar`,
      body: `${CSV_HEADER}\nprototipo,Loft ${t.make.unique()},,,,,,3100000,1,1,0,1,55\n`,
      type: 'text/csv',
    }),
  },
  {
    // Media uploads (issue 20): the file is the body, typed from its bytes (a small PDF here).
    method: 'POST',
    path: '/api/corporativos/:c/desarrollos/:d/medios',
    access: 'member',
    role: administersInventory,
    slots: ['corp', 'resource'],
    kind: 'write',
    fill: (t) => ({
      path: `/api/corporativos/${t.corp.id}/desarrollos/${t.res.devId}/medios?${q({
        tipo: 'documento',
        titulo: `Ficha ${t.make.unique()}`,
      })}`,
      body: '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
      type: 'application/pdf',
    }),
  },
  // ------------------------------------------------------------------ leads
  {
    method: 'GET',
    path: '/api/wsObtenerLeads',
    access: 'member',
    slots: ['corp', 'owner'],
    kind: 'read',
    // Filtering by another adviser answers the caller's scope: nothing of theirs for 'Propios'.
    allow: (a) => member(a),
    fill: (t) => ({
      path: `/api/wsObtenerLeads?${q({ idCorporativo: t.corp.id, idVendedor: t.owner.id })}`,
    }),
  },
  {
    method: 'GET',
    path: '/api/corporativos/:id/leads/:leadId',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'read',
    fill: (t) => ({ path: `${leadsOf(t)}/${t.leadId}` }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/leads',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    json: true,
    // For the owner (the caller, or another adviser when the caller may assign leads).
    allow: (a) =>
      member(a) && sameTenant(a.t) && (a.t.owner.id === a.caller.id || mayAssignLeads(a.role!)),
    fill: (t) => {
      const u = t.make.unique();
      return {
        path: leadsOf(t),
        body: {
          nombre: `Matriz ${u}`,
          apellidos: 'Prueba',
          email: `${u}@example.com`,
          medioContacto: 'Showroom',
          idVendedor: t.owner.id,
        },
      };
    },
  },
  {
    method: 'PUT',
    path: '/api/corporativos/:id/leads/:leadId',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    json: true,
    fill: async (t) => {
      const id = await t.make.lead();
      const doc = await t.make.leadDoc(id);
      const { id: _i, idCorporativo: _c, fechaAlta: _f, eliminado: _e, ...fields } = doc;
      return {
        path: `${leadsOf(t)}/${id}`,
        body: { ...fields, notas: `Editado ${t.make.unique()}`, leadAnterior: fields },
      };
    },
  },
  {
    method: 'DELETE',
    path: '/api/corporativos/:id/leads/:leadId',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    fill: async (t) => ({ path: `${leadsOf(t)}/${await t.make.lead()}` }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/leads/:leadId/asignar',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    json: true,
    // The caller takes the owner's lead: only a lead in the caller's scope (the default rule).
    fill: async (t) => ({
      path: `${leadsOf(t)}/${await t.make.lead()}/asignar`,
      body: { idVendedor: t.caller?.id ?? t.owner.id },
    }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/leads/:leadId/merge',
    access: 'member',
    role: mayMergeLeads,
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    json: true,
    fill: async (t) => ({
      path: `${leadsOf(t)}/${await t.make.lead()}/merge`,
      body: { idLeadDuplicado: await t.make.lead() },
    }),
  },
  {
    method: 'GET',
    path: '/api/corporativos/:id/leads/:leadId/notas',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'read',
    fill: (t) => ({ path: `${leadsOf(t)}/${t.leadId}/notas` }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/leads/:leadId/notas',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    json: true,
    fill: async (t) => ({
      path: `${leadsOf(t)}/${await t.make.lead()}/notas`,
      body: { nota: `Nota ${t.make.unique()}` },
    }),
  },
  {
    method: 'DELETE',
    path: '/api/corporativos/:id/leads/:leadId/notas/:key',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    fill: async (t) => {
      const id = await t.make.lead();
      return { path: `${leadsOf(t)}/${id}/notas/${await t.make.note(id)}` };
    },
  },
  {
    method: 'GET',
    path: '/api/wsObtenerHistorialCambios',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'read',
    fill: (t) => ({
      path: `/api/wsObtenerHistorialCambios?${q({ idCorporativo: t.corp.id, idLead: t.leadId })}`,
    }),
  },
  {
    method: 'POST',
    path: '/api/public/registro',
    access: 'public',
    slots: ['corp'],
    kind: 'write',
    json: true,
    fill: (t) => {
      const u = t.make.unique();
      return {
        path: `/api/public/registro?${q({ medio: t.corp.medio, corp: t.corp.slug })}`,
        body: { nombre: `Visita ${u}`, email: `${u}@example.com`, mensaje: 'Hola' },
      };
    },
  },
  // ------------------------------------------------------------------ live and health
  {
    method: 'GET',
    path: '/api/stream',
    access: 'session',
    slots: [],
    kind: 'stream',
    fill: () => ({ path: '/api/stream' }),
  },
  {
    method: 'GET',
    path: '/api/health',
    access: 'public',
    slots: [],
    kind: 'read',
    fill: () => ({ path: '/api/health' }),
  },
  // ------------------------------------------------------------------ showroom check-in
  {
    method: 'GET',
    path: '/api/wsObtenerCheckIn',
    access: 'member',
    slots: ['corp', 'owner'],
    kind: 'read',
    // The owner's check-in: their own, or anyone's for a host administrator.
    allow: (a) => member(a) && mayActOnCheckInOf({ user: a.caller, role: a.role! }, a.t.owner.id),
    fill: (t) => ({
      path: `/api/wsObtenerCheckIn?${q({ idCorporativo: t.corp.id, idUsuario: t.owner.id })}`,
    }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/check-ins',
    access: 'member',
    role: mayCheckIn,
    // The corporate's own showroom: with a check-in already in effect the answer is that one
    // (200, nothing written) whatever showroom the body names, so another corporate's id proves
    // nothing here; the check-out and history rows aim at the other corporate's check-ins.
    slots: ['corp'],
    kind: 'write',
    json: true,
    fill: (t) => ({
      path: `/api/corporativos/${t.corp.id}/check-ins`,
      body: {
        check: true,
        idShowroom: t.corp.showroom.id,
        nombreShowroom: t.corp.showroom.nombre,
        coordenadas: {
          _latitude: t.corp.showroom.lat,
          _longitude: t.corp.showroom.lng,
          _accuracy: 10,
        },
      },
    }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/check-ins/:checkinId/historial-check-in',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    // A POST that writes nothing: the check-in as the history has it.
    kind: 'read',
    json: true,
    allow: (a) =>
      member(a) &&
      sameTenant(a.t) &&
      mayActOnCheckInOf({ user: a.caller, role: a.role! }, a.t.owner.id),
    fill: async (t) => ({
      path: `/api/corporativos/${t.corp.id}/check-ins/${await t.make.checkIn()}/historial-check-in`,
      body: {},
    }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/check-ins/:checkinId/check-out/:x',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    json: true,
    allow: (a) =>
      member(a) &&
      sameTenant(a.t) &&
      mayActOnCheckInOf({ user: a.caller, role: a.role! }, a.t.owner.id),
    fill: async (t) => ({
      path: `/api/corporativos/${t.corp.id}/check-ins/${await t.make.checkIn()}/check-out/${t.owner.id}`,
      body: { checkInActivo: false },
    }),
  },
  {
    method: 'PUT',
    path: '/api/corporativos/:id/config-corporativo/showroom/:showRoomId',
    access: 'member',
    role: mayAdministerShowrooms,
    slots: ['corp'],
    kind: 'write',
    json: true,
    // The showroom as it is (the same values write nothing; check-ins keep working).
    fill: (t) => ({
      path: `/api/corporativos/${t.corp.id}/config-corporativo/showroom/${t.corp.showroom.id}`,
      body: {
        nombre: t.corp.showroom.nombre,
        activo: true,
        coordenadas: { _latitude: t.corp.showroom.lat, _longitude: t.corp.showroom.lng },
      },
    }),
  },
  {
    method: 'GET',
    path: '/api/corporativos/:id/showrooms/asesores',
    access: 'member',
    role: mayAdministerShowrooms,
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/corporativos/${t.corp.id}/showrooms/asesores` }),
  },
  ...(['folio', 'qr.svg', 'en-turno', 'check-ins', 'invitados'] as const).map(
    (name): RouteSpec => ({
      method: 'GET',
      path: `/api/corporativos/:id/showrooms/:sid/${name}`,
      access: 'member',
      role: mayAdministerShowrooms,
      slots: ['corp', 'resource'],
      kind: 'read',
      fill: (t) => ({
        path: `/api/corporativos/${t.corp.id}/showrooms/${t.res.showroom.id}/${name}`,
      }),
    }),
  ),
  {
    method: 'POST',
    path: '/api/corporativos/:id/showrooms/:sid/invitados',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    json: true,
    allow: (a) => member(a) && sameTenant(a.t) && mayAdministerShowrooms(a.role),
    fill: (t) => ({
      path: `/api/corporativos/${t.corp.id}/showrooms/${t.res.showroom.id}/invitados`,
      body: {
        nombre: `Invitado ${t.make.unique()}`,
        contacto: '55 1234 5678',
        fechaVisita: '2026-12-01',
        idAsesor: t.owner.id,
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/api/corporativos/:id/showrooms/:sid/invitados/:gid',
    access: 'member',
    role: mayAdministerShowrooms,
    slots: ['corp', 'resource'],
    kind: 'write',
    fill: async (t) => ({
      path: `/api/corporativos/${t.corp.id}/showrooms/${t.res.showroom.id}/invitados/${await t.make.guest()}`,
    }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/showrooms/:sid/invitados/:gid/llegada',
    access: 'member',
    role: mayAdministerShowrooms,
    slots: ['corp', 'resource'],
    kind: 'write',
    fill: async (t) => ({
      path: `/api/corporativos/${t.corp.id}/showrooms/${t.res.showroom.id}/invitados/${await t.make.guest()}/llegada`,
    }),
  },
  // ------------------------------------------------------------------ appointments
  {
    method: 'GET',
    path: '/api/wsObtenerCitas',
    access: 'member',
    slots: ['corp', 'owner'],
    kind: 'read',
    scopeOf: seesAllAppointments,
    // Asking for another adviser's answers the caller's scope: nothing of theirs for 'Propios'.
    allow: (a) => member(a),
    fill: (t) => ({
      path: `/api/wsObtenerCitas?${q({
        idCorporativo: t.corp.id,
        fechaInicio: dayFromNow(-1),
        fechaFin: dayFromNow(30),
        idAsesor: t.owner.id,
      })}`,
    }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/citas',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    json: true,
    scopeOf: seesAllAppointments,
    // With the owner's lead, for the owner: a host administrator books for anyone.
    allow: (a) =>
      member(a) &&
      sameTenant(a.t) &&
      (isHostAdmin(a.role) || seesAllLeads(a.role!) || a.t.owner.id === a.caller.id) &&
      mayBookAppointmentFor({ user: a.caller, role: a.role! }, a.t.owner.id),
    fill: (t) => ({ path: `/api/corporativos/${t.corp.id}/citas`, body: appointmentBody(t) }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/citas/llegada',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    json: true,
    // Any member at the front desk: the walk-in's contact finds the client and their appointment.
    allow: (a) => member(a) && sameTenant(a.t),
    fill: async (t) => ({
      path: `/api/corporativos/${t.corp.id}/citas/llegada`,
      body: { idDesarrollo: t.res.devId, email: await t.make.arrival() },
    }),
  },
  {
    method: 'GET',
    path: '/api/corporativos/:id/citas/conflictos',
    access: 'member',
    slots: ['corp', 'owner'],
    kind: 'read',
    scopeOf: seesAllAppointments,
    // Anyone may ask whether a slot is taken; another adviser's appointment shows no id.
    allow: (a) => member(a),
    fill: (t) => {
      const b = appointmentBody(t);
      return {
        path: `/api/corporativos/${t.corp.id}/citas/conflictos?${q({
          idAsesor: t.owner.id,
          idShowroom: t.corp.showroom.id,
          fechaInicio: b.fechaInicio,
          fechaFin: b.fechaFin,
        })}`,
      };
    },
  },
  ...(['clientes', 'asesores'] as const).map((name): RouteSpec => ({
    method: 'GET',
    path: `/api/corporativos/:id/citas/${name}`,
    access: 'member',
    slots: ['corp'],
    kind: 'read',
    // A host administrator books with every lead of the corporate.
    scopeOf: seesAllAppointments,
    fill: (t) => ({ path: `/api/corporativos/${t.corp.id}/citas/${name}` }),
  })),
  {
    method: 'GET',
    path: '/api/corporativos/:id/citas/:citaId',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'read',
    scopeOf: seesAllAppointments,
    fill: (t) => ({ path: `/api/corporativos/${t.corp.id}/citas/${t.citaId}` }),
  },
  {
    method: 'GET',
    path: '/api/corporativos/:id/citas/:citaId/cita.ics',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'read',
    scopeOf: seesAllAppointments,
    fill: (t) => ({ path: `/api/corporativos/${t.corp.id}/citas/${t.citaId}/cita.ics` }),
  },
  {
    method: 'PUT',
    path: '/api/corporativos/:id/citas/:citaId',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    json: true,
    scopeOf: seesAllAppointments,
    fill: async (t) => ({
      path: `/api/corporativos/${t.corp.id}/citas/${await t.make.appointment()}`,
      body: { titulo: `Visita ${t.make.unique()}` },
    }),
  },
  {
    method: 'DELETE',
    path: '/api/corporativos/:id/citas/:citaId',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    scopeOf: seesAllAppointments,
    fill: async (t) => ({
      path: `/api/corporativos/${t.corp.id}/citas/${await t.make.appointment()}`,
    }),
  },
  {
    method: 'GET',
    path: '/api/corporativos/:id/calendario/suscripcion',
    access: 'member',
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/corporativos/${t.corp.id}/calendario/suscripcion` }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/calendario/suscripcion',
    access: 'member',
    slots: ['corp'],
    kind: 'write',
    json: true,
    fill: (t) => ({ path: `/api/corporativos/${t.corp.id}/calendario/suscripcion`, body: {} }),
  },
  {
    method: 'DELETE',
    path: '/api/corporativos/:id/calendario/suscripcion',
    access: 'member',
    slots: ['corp'],
    kind: 'write',
    fill: (t) => ({ path: `/api/corporativos/${t.corp.id}/calendario/suscripcion` }),
  },
  {
    method: 'GET',
    path: '/api/calendario/:file',
    // The token is the credential: the owner's private feed, for their calendar app.
    access: 'public',
    slots: ['owner'],
    kind: 'read',
    fill: async (t) => ({ path: `/api/calendario/${await t.make.calendarFeed()}` }),
  },
  // ------------------------------------------------------------------ web push
  {
    method: 'GET',
    path: '/api/push/clave-publica',
    access: 'session',
    slots: [],
    kind: 'read',
    fill: () => ({ path: '/api/push/clave-publica' }),
  },
  {
    method: 'POST',
    path: '/api/push/suscripciones',
    access: 'session',
    slots: [],
    kind: 'write',
    json: true,
    fill: (t) => ({
      path: '/api/push/suscripciones',
      body: {
        endpoint: `https://fcm.googleapis.com/fcm/send/${t.make.unique()}`,
        keys: {
          p256dh: Buffer.alloc(65, 4).toString('base64url'),
          auth: Buffer.alloc(16, 7).toString('base64url'),
        },
      },
    }),
  },
  {
    method: 'POST',
    path: '/api/push/suscripciones/baja',
    access: 'session',
    slots: [],
    kind: 'write',
    json: true,
    fill: (t) => ({
      path: '/api/push/suscripciones/baja',
      body: { endpoint: `https://fcm.googleapis.com/fcm/send/${t.make.unique()}` },
    }),
  },
  // ------------------------------------------------------------------ notifications
  {
    method: 'GET',
    path: '/api/users/:id/notificaciones/preferencias',
    access: 'self',
    slots: ['user'],
    kind: 'read',
    fill: (t) => ({ path: `/api/users/${t.user.id}/notificaciones/preferencias` }),
  },
  {
    method: 'PUT',
    path: '/api/users/:id/notificaciones/preferencias',
    access: 'self',
    slots: ['user'],
    kind: 'write',
    json: true,
    fill: (t) => ({
      path: `/api/users/${t.user.id}/notificaciones/preferencias`,
      body: { tipos: { 'lead.web': { push: false } }, idioma: 'es' },
    }),
  },
  ...(['wsObtenerNotificaciones', 'wsObtenerNotificacionesLeidas'] as const).map(
    (name): RouteSpec => ({
      method: 'GET',
      path: `/api/${name}`,
      access: 'member',
      slots: ['corp', 'user'],
      kind: 'read',
      // One's own inbox only, whatever the role.
      allow: (a) => member(a) && a.t.user.id === a.caller.id,
      fill: (t) => ({
        path: `/api/${name}?${q({ idCorporativo: t.corp.id, idUsuario: t.user.id })}`,
      }),
    }),
  ),
  {
    method: 'PUT',
    path: '/api/corporativos/:id/notificaciones/leidas',
    access: 'member',
    slots: ['corp', 'user'],
    kind: 'write',
    json: true,
    allow: (a) => member(a) && a.t.user.id === a.caller.id,
    fill: (t) => ({
      path: `/api/corporativos/${t.corp.id}/notificaciones/leidas`,
      body: { idUsuario: t.user.id, todas: true },
    }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/notificaciones',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    json: true,
    // To the owner, a member of the resource's corporate.
    allow: (a) => member(a) && sameTenant(a.t) && maySendNotifications(a.role!),
    fill: (t) => ({
      path: `/api/corporativos/${t.corp.id}/notificaciones`,
      body: { titulo: 'Aviso', mensaje: `Mensaje ${t.make.unique()}`, idUsuarios: [t.owner.id] },
    }),
  },
  // ------------------------------------------------------------------ chat assistant
  {
    method: 'POST',
    path: '/api/chat',
    access: 'member',
    slots: ['corp'],
    kind: 'read',
    json: true,
    // The demo corporates answer with the built-in inventory assistant (nothing is written).
    fill: (t) => ({
      path: '/api/chat',
      body: {
        corporativo: t.corp.id,
        mensaje: '2 recámaras por menos de 9 millones',
        sessionID: 'matriz-chat-1',
      },
    }),
  },
  // ------------------------------------------------------------------ labels (issue 19)
  {
    method: 'GET',
    path: '/api/wsObtenerIdiomas',
    access: 'public',
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/wsObtenerIdiomas?${q({ idCorporativo: t.corp.id, lang: 'en' })}` }),
  },
  {
    method: 'GET',
    path: '/api/corporativos/:id/idiomas',
    access: 'member',
    role: mayConfigureChat,
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/corporativos/${t.corp.id}/idiomas` }),
  },
  {
    method: 'PUT',
    path: '/api/corporativos/:id/idiomas/:lang',
    access: 'member',
    role: mayConfigureChat,
    slots: ['corp'],
    kind: 'write',
    json: true,
    // The demo's English labels as they are (the same labels write nothing).
    fill: (t) => ({
      path: `/api/corporativos/${t.corp.id}/idiomas/en`,
      body: { etiquetas: DEMO_ENGLISH_LABELS },
    }),
  },
  {
    method: 'GET',
    path: '/api/corporativos/:id/config-chat',
    access: 'member',
    role: mayConfigureChat,
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/corporativos/${t.corp.id}/config-chat` }),
  },
  {
    method: 'PUT',
    path: '/api/corporativos/:id/config-chat',
    access: 'member',
    role: mayConfigureChat,
    slots: ['corp'],
    kind: 'write',
    json: true,
    // The demo's settings as they are (the same values write nothing; the chat stays on).
    fill: (t) => ({
      path: `/api/corporativos/${t.corp.id}/config-chat`,
      body: { mostrarChat: true, asistenteChat: 'inventario', mensajeBienvenidaChat: {} },
    }),
  },
  {
    method: 'GET',
    path: '/api/corporativos/:id/datos-legales',
    access: 'member',
    role: mayEditLegalData,
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/corporativos/${t.corp.id}/datos-legales` }),
  },
  {
    method: 'PUT',
    path: '/api/corporativos/:id/datos-legales',
    access: 'member',
    role: mayEditLegalData,
    slots: ['corp'],
    kind: 'write',
    json: true,
    fill: (t) => ({
      path: `/api/corporativos/${t.corp.id}/datos-legales`,
      body: { razonSocial: `${t.corp.slug} S.A. de C.V.`, domicilio: 'Av. Reforma 100, CDMX' },
    }),
  },
  // ------------------------------------------------------------------ content (issue 20)
  {
    method: 'GET',
    path: '/api/wsObtenerDestacados',
    access: 'member',
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/wsObtenerDestacados?${corpQ(t)}` }),
  },
  {
    method: 'PUT',
    path: '/api/corporativos/:id/destacados',
    access: 'member',
    role: mayAdministerContent,
    slots: ['corp', 'resource'],
    kind: 'write',
    json: true,
    fill: (t) => ({
      path: `/api/corporativos/${t.corp.id}/destacados`,
      body: { items: [t.res.devId] },
    }),
  },
  {
    method: 'GET',
    path: '/api/wsObtenerTutoriales',
    access: 'member',
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/wsObtenerTutoriales?${corpQ(t)}` }),
  },
  {
    method: 'GET',
    path: '/api/corporativos/:id/tutoriales',
    access: 'member',
    role: mayAdministerContent,
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/corporativos/${t.corp.id}/tutoriales` }),
  },
  {
    method: 'PUT',
    path: '/api/corporativos/:id/tutoriales',
    access: 'member',
    role: mayAdministerContent,
    slots: ['corp'],
    kind: 'write',
    json: true,
    fill: (t) => ({
      path: `/api/corporativos/${t.corp.id}/tutoriales`,
      body: {
        tutoriales: [
          {
            id: `tut-${randomUUID().slice(0, 8)}`,
            activo: true,
            es: { titulo: 'Apartar una unidad', pasos: ['Abre la unidad y pulsa «Apartar».'] },
            en: { titulo: 'Hold a unit', pasos: ['Open the unit and press “Hold”.'] },
          },
        ],
      },
    }),
  },
  // ------------------------------------------------------------------ CRM (issue 17)
  {
    method: 'GET',
    path: '/api/corporativos/:id/crm/config',
    access: 'member',
    role: mayConfigureCrm,
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/corporativos/${t.corp.id}/crm/config` }),
  },
  {
    method: 'PUT',
    path: '/api/corporativos/:id/crm/config',
    access: 'member',
    role: mayConfigureCrm,
    slots: ['corp'],
    kind: 'write',
    json: true,
    // The CRM off (the demo's corporates have none): writes once, then the same values nothing.
    fill: (t) => ({
      path: `/api/corporativos/${t.corp.id}/crm/config`,
      body: { tipo: null, clientId: '', mapaLeads: {}, exportacion: { url: null } },
    }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/crm/config/vista-previa',
    access: 'member',
    role: mayConfigureCrm,
    slots: ['corp'],
    kind: 'read',
    json: true,
    fill: (t) => ({
      path: `/api/corporativos/${t.corp.id}/crm/config/vista-previa`,
      body: { mapaLeads: { nombre: { campo: 'FirstName' } }, lead: { nombre: 'Ana' } },
    }),
  },
  {
    method: 'POST',
    path: '/api/crm/autorizar',
    access: 'member',
    slots: ['corp'],
    kind: 'read',
    json: true,
    refusedFill: "the demo's corporates have no CRM: 400 'No existe config CRM en el corporativo'",
    fill: (t) => ({ path: '/api/crm/autorizar', body: { idCorporativo: t.corp.id } }),
  },
  {
    method: 'POST',
    path: '/api/crm/token',
    access: 'member',
    slots: ['corp'],
    kind: 'write',
    json: true,
    refusedFill: 'a state no authorisation issued: 400 CRM_STATE_INVALID',
    fill: (t) => ({
      path: '/api/crm/token',
      body: { code: 'codigo', state: `matriz-${t.make.unique()}`, idCorporativo: t.corp.id },
    }),
  },
  {
    method: 'POST',
    path: '/api/crm/refresh-token',
    access: 'member',
    slots: ['corp'],
    kind: 'write',
    json: true,
    refusedFill: "the demo's corporates have no CRM: 400",
    fill: (t) => ({ path: '/api/crm/refresh-token', body: { idCorporativo: t.corp.id } }),
  },
  {
    method: 'GET',
    path: '/api/crm/user',
    access: 'member',
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/crm/user?${corpQ(t)}` }),
  },
  {
    method: 'DELETE',
    path: '/api/crm/user',
    access: 'member',
    slots: ['corp'],
    kind: 'write',
    fill: (t) => ({ path: `/api/crm/user?${corpQ(t)}` }),
  },
  {
    method: 'GET',
    path: '/api/corporativos/:id/crm/leads',
    access: 'member',
    slots: ['corp'],
    kind: 'read',
    refusedFill: "the demo's corporates have no CRM: 400 (409 CRM_DESCONECTADO with one)",
    fill: (t) => ({ path: `/api/corporativos/${t.corp.id}/crm/leads?q=ana` }),
  },
  {
    method: 'GET',
    path: '/api/corporativos/:id/leads/:leadId/crm',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'read',
    fill: (t) => ({ path: `${leadsOf(t)}/${t.leadId}/crm` }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/leads/:leadId/crm/reintentar',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    refusedFill: "the demo's corporates have no CRM: 400",
    fill: (t) => ({ path: `${leadsOf(t)}/${t.leadId}/crm/reintentar`, body: {} }),
  },
  {
    method: 'GET',
    path: '/api/corporativos/:id/crm/sincronizacion',
    access: 'member',
    role: mayConfigureCrm,
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/corporativos/${t.corp.id}/crm/sincronizacion` }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/leads/:leadId/exportar',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    json: true,
    refusedFill: "the demo's corporates have no export URL: 400 CRM_EXPORT_NO_URL",
    fill: (t) => ({ path: `${leadsOf(t)}/${t.leadId}/exportar`, body: { mensaje: 'Hola' } }),
  },
  {
    method: 'GET',
    path: '/api/corporativos/:id/desarrollos/:d/ajustes',
    access: 'member',
    role: mayAdministerContent,
    slots: ['corp', 'resource'],
    kind: 'read',
    fill: (t) => ({ path: `/api/corporativos/${t.corp.id}/desarrollos/${t.res.devId}/ajustes` }),
  },
  {
    method: 'PUT',
    path: '/api/corporativos/:id/desarrollos/:d/ajustes',
    access: 'member',
    role: mayAdministerContent,
    slots: ['corp', 'resource'],
    kind: 'write',
    json: true,
    fill: (t) => ({
      path: `/api/corporativos/${t.corp.id}/desarrollos/${t.res.devId}/ajustes`,
      body: { campanias: ['Feria 2026', `Campaña ${randomUUID().slice(0, 6)}`] },
    }),
  },
  // ------------------------------------------------------------------ operations
  {
    method: 'GET',
    path: '/api/operaciones',
    access: 'operator',
    slots: [],
    kind: 'read',
    fill: () => ({ path: '/api/operaciones?limite=10' }),
  },
  {
    method: 'POST',
    path: '/api/operaciones/timers/:key/reintentar',
    access: 'operator',
    slots: [],
    kind: 'write',
    json: true,
    refusedFill: 'no timer has failed in the demo: the retry answers 404',
    fill: (t) => ({
      path: `/api/operaciones/timers/matriz-${t.make.unique()}/reintentar`,
      body: {},
    }),
  },
  {
    method: 'POST',
    path: '/api/operaciones/mensajes/:id/reintentar',
    access: 'operator',
    slots: [],
    kind: 'write',
    json: true,
    refusedFill: 'no message is dead in the demo: the retry answers 404',
    fill: (t) => ({
      path: `/api/operaciones/mensajes/matriz-${t.make.unique()}/reintentar`,
      body: {},
    }),
  },
  {
    method: 'POST',
    path: '/api/operaciones/consumidores/:consumer/eventos/:eventId/reintentar',
    access: 'operator',
    slots: [],
    kind: 'write',
    json: true,
    refusedFill: 'no event is parked in the demo: the retry answers 404',
    fill: () => ({
      path: `/api/operaciones/consumidores/matriz/eventos/${randomUUID()}/reintentar`,
      body: {},
    }),
  },
  // ------------------------------------------------------------------ quotations
  {
    method: 'POST',
    path: '/api/corporativos/:id/cotizaciones',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    json: true,
    fill: (t) => ({
      path: quotesOf(t),
      body: {
        idUnidad: t.res.quoteUnitId,
        idEsquema: t.res.schemeId,
        opcionales: [],
        extras: [{ nombre: 'Bodega', precio: 1000 }],
        divisa: t.res.divisa,
        idLead: t.leadId,
      },
    }),
  },
  {
    method: 'GET',
    path: '/api/wsObtenerCotizacionesLocales',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'read',
    fill: (t) => ({
      path: `/api/wsObtenerCotizacionesLocales?${q({ idCorporativo: t.corp.id, idLead: t.leadId })}`,
    }),
  },
  {
    method: 'GET',
    path: '/api/wsObtenerCotizacionesSemanales',
    access: 'member',
    role: mayGenerateQuoteReport,
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/wsObtenerCotizacionesSemanales?${corpQ(t)}` }),
  },
  {
    // The same report streamed as NDJSON for the client's CSV builder (issue 21).
    method: 'GET',
    path: '/api/cotizaciones/reporte-semanal',
    access: 'member',
    role: mayGenerateQuoteReport,
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/cotizaciones/reporte-semanal?${corpQ(t)}` }),
  },
  {
    method: 'PUT',
    path: '/api/corporativos/:id/cotizaciones/:qid/favorito',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    fill: (t) => ({ path: `${quotesOf(t)}/${t.quotationId}/favorito`, body: {} }),
  },
  {
    method: 'POST',
    path: '/api/corporativos/:id/cotizaciones/:qid/compartir',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    json: true,
    fill: (t) => ({ path: `${quotesOf(t)}/${t.quotationId}/compartir`, body: { diasVigencia: 7 } }),
  },
  {
    method: 'GET',
    path: '/api/corporativos/:id/cotizaciones/:qid/compartidos',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'read',
    fill: (t) => ({ path: `${quotesOf(t)}/${t.quotationId}/compartidos` }),
  },
  {
    method: 'DELETE',
    path: '/api/corporativos/:id/cotizaciones/:qid/compartidos/:nonce',
    access: 'member',
    slots: ['corp', 'resource', 'owner'],
    kind: 'write',
    fill: async (t) => {
      const { nonce } = await t.make.share(t.quotationId);
      return { path: `${quotesOf(t)}/${t.quotationId}/compartidos/${nonce}` };
    },
  },
  {
    method: 'GET',
    path: '/api/wsObtenerEsquemasPago',
    access: 'member',
    slots: ['corp', 'resource'],
    kind: 'read',
    fill: (t) => ({
      path: `/api/wsObtenerEsquemasPago?${q({
        idCorporativo: t.corp.id,
        idDesarrollo: t.res.devId,
        idCluster: t.res.clusterId,
      })}`,
    }),
  },
  {
    method: 'GET',
    path: '/api/wsObtenerExtrasAdicionales',
    access: 'member',
    slots: ['corp', 'resource'],
    kind: 'read',
    fill: (t) => ({
      path: `/api/wsObtenerExtrasAdicionales?${q({
        idCorporativo: t.corp.id,
        idDesarrollo: t.res.devId,
        idCluster: t.res.clusterId,
      })}`,
    }),
  },
  // ------------------------------------------------------------------ public pages
  {
    method: 'GET',
    path: '/api/public/corporativos/:c',
    access: 'public',
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({ path: `/api/public/corporativos/${t.corp.slug}` }),
  },
  {
    method: 'GET',
    path: '/api/public/corporativos/:c/desarrollos/:d',
    access: 'public',
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({
      path: `/api/public/corporativos/${t.corp.slug}/desarrollos/${t.corp.devSlug}`,
    }),
  },
  {
    method: 'GET',
    path: '/api/public/corporativos/:c/desarrollos/:d/disponibilidad',
    access: 'public',
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({
      path: `/api/public/corporativos/${t.corp.slug}/desarrollos/${t.corp.devSlug}/disponibilidad`,
    }),
  },
  {
    method: 'GET',
    path: '/api/public/corporativos/:c/desarrollos/:d/landing',
    access: 'public',
    slots: ['corp'],
    kind: 'read',
    fill: (t) => ({
      path: `/api/public/corporativos/${t.corp.slug}/desarrollos/${t.corp.devSlug}/landing`,
    }),
  },
  {
    method: 'GET',
    path: '/api/public/corporativos/:c/desarrollos/:d/stream',
    access: 'public',
    slots: ['corp'],
    kind: 'stream',
    fill: (t) => ({
      path: `/api/public/corporativos/${t.corp.slug}/desarrollos/${t.corp.devSlug}/stream`,
    }),
  },
  {
    method: 'GET',
    path: '/api/public/cotizaciones/:token',
    access: 'public',
    slots: ['owner'],
    kind: 'read',
    fill: (t) => ({ path: `/api/public/cotizaciones/${t.shareToken}` }),
  },
  {
    method: 'POST',
    path: '/api/public/corporativos/:c/desarrollos/:d/simular',
    access: 'public',
    slots: ['corp', 'resource'],
    kind: 'read',
    json: true,
    fill: (t) => ({
      path: `/api/public/corporativos/${t.corp.slug}/desarrollos/${t.corp.devSlug}/simular`,
      body: { idUnidad: t.res.quoteUnitId, idEsquema: t.res.schemeId, opcionales: [] },
    }),
  },
];

/** `METHOD path` of a route, the key both the table and `app.routes` are compared by. */
export const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/**
 * The default rule: may `caller` (null: signed out) reach what the target names through `route`?
 * A 2xx where this says no is a leak.
 */
export function mayReach(
  route: RouteSpec,
  a: Omit<AllowArgs, 'caller'> & { caller: Person | null },
) {
  // Public routes are for anyone, but only within the corporate the request names.
  if (route.access === 'public') return !route.slots.includes('resource') || sameTenant(a.t);
  if (!a.caller) return false;
  const args = a as AllowArgs;
  if (route.allow) return route.allow(args);
  if (route.access === 'session') return true;
  if (route.access === 'self') return a.t.user.id === a.caller.id;
  if (route.access === 'operator') return args.operates;
  if (!args.role) return false;
  if (route.role && !route.role(args.role)) return false;
  if (route.slots.includes('resource') && !sameTenant(a.t)) return false;
  if (route.slots.includes('owner') && route.slots.includes('resource')) {
    return (route.scopeOf ?? seesAllLeads)(args.role) || a.t.owner.id === a.caller.id;
  }
  return true;
}
