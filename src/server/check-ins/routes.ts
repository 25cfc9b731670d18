/**
 * Showroom check-in (issue 14; spec §3 Showroom and Check-in, §4, §7 check-in calls and the
 * showroom PUT, §8, §9): parse with zod, authorise (core/permissions.ts), run the command
 * (commands.ts) or the query (queries.ts), answer. The corporate comes from the session's
 * membership (403 for non-members). Every refusal is `[{ errorCode, message, …extra }]` in the
 * caller's language, and nothing is written.
 *
 * The adviser's calls: `GET wsObtenerCheckIn`, `POST …/check-ins` (save),
 * `POST …/check-ins/{id}/historial-check-in`, `POST …/check-ins/{id}/check-out/{idUsuario}`.
 * The host administrator's: the showroom `PUT`, its folio and QR poster, its guests, who is on
 * duty now and the history of a day.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import {
  corporateZone,
  dayBounds,
  folioDay,
  isCalendarDay,
  localDay,
  type CheckInVia,
} from '../../core/check-in';
import {
  isHostAdmin,
  mayActOnCheckInOf,
  mayAdministerShowrooms,
  mayCheckIn,
} from '../../core/permissions';
import { userStatus } from '../../core/user';
import { requireMember, type Ctx, type Env, type Membership } from '../http/context';
import { ApiError, forbidden, jsonBody, parse } from '../http/errors';
import {
  checkInNotFound,
  checkOut,
  configureShowroom,
  inviteGuest,
  markGuestArrived,
  removeGuest,
  saveCheckIn,
  showroomNotFound,
} from './commands';
import { signFolio, verifyFolio } from './folio';
import { folioPath, qrSvg } from './poster';
import {
  currentCheckIn,
  findCheckIn,
  findShowroom,
  historyRow,
  onDuty,
  showroomGuests,
  showroomHistory,
} from './queries';

const id = z.string().min(1).max(64);
/** Ids a host administrator may give a new showroom. */
const showroomId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);
const day = z.string().refine(isCalendarDay, { message: 'YYYY-MM-DD' });

const coordinates = z.strictObject({
  _latitude: z.number(),
  _longitude: z.number(),
  _accuracy: z.number(),
});

const saveBody = z
  .strictObject({
    /** The spec's `check`: the record is a check-in. */
    check: z.literal(true),
    idShowroom: id.optional(),
    nombreShowroom: z.string().max(200).optional(),
    coordenadas: coordinates.nullable().optional(),
    tipoRegistro: z.enum(['QR', 'Geolocalizacion']).optional(),
    folio: z.string().min(1).max(600).optional(),
  })
  .superRefine((b, ctx) => {
    const qr = b.tipoRegistro === 'QR';
    if (qr && b.folio === undefined)
      ctx.addIssue({ code: 'custom', path: ['folio'], message: 'a QR check-in needs its folio' });
    if (!qr && b.folio !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['tipoRegistro'],
        message: "a folio is a 'QR' check-in",
      });
    if (!qr && !b.coordenadas)
      ctx.addIssue({ code: 'custom', path: ['coordenadas'], message: 'needs the position' });
    if (!qr && b.idShowroom === undefined)
      ctx.addIssue({ code: 'custom', path: ['idShowroom'], message: 'needs the showroom' });
  });

const checkOutBody = z.strictObject({ checkInActivo: z.literal(false).optional() });

const showroomBody = z.strictObject({
  nombre: z.string().max(200),
  activo: z.boolean(),
  coordenadas: z.strictObject({
    _latitude: z.number(),
    _longitude: z.number(),
    _accuracy: z.number().optional(),
  }),
  idDesarrollo: id.optional(),
});

const guestBody = z.strictObject({
  nombre: z.string().max(200),
  contacto: z.string().max(200).default(''),
  fechaVisita: z.string().max(10),
  idAsesor: id,
});

const getCheckInQuery = z.strictObject({ idCorporativo: id, idUsuario: id });
const dayQuery = z.strictObject({ fecha: day.optional() });
const guestQuery = z.strictObject({ fecha: day.optional(), desde: day.optional() });

/** Where the QR link points: `VITRINA_PUBLIC_URL` when set, else the origin the call came to. */
function publicOrigin(c: Ctx): string {
  const configured = process.env.VITRINA_PUBLIC_URL;
  if (configured) return configured.replace(/\/+$/, '');
  return new URL(c.req.url).origin;
}

async function requireShowroomAdmin(c: Ctx): Promise<Membership> {
  const m = await requireMember(c, { id: c.req.param('id') });
  if (!mayAdministerShowrooms(m.role)) throw forbidden();
  return m;
}

async function requireShowroom(c: Ctx, m: Membership) {
  const sid = parse(id, c.req.param('sid'));
  const showroom = await findShowroom(c.get('deps').db, m.corporate.id, sid);
  if (!showroom) throw showroomNotFound();
  return showroom;
}

const folioInvalid = () => new ApiError(403, 'FOLIO_INVALID', 'folio_invalid');

export const checkInRoutes = new Hono<Env>()
  /**
   * `GET /api/wsObtenerCheckIn?idCorporativo&idUsuario` → the user's check-in in effect
   * (core/check-in.ts CheckIn: active, not past its 43200 s), or `null` when there is none (the
   * client logs 'sin checkin'). Another user's: only for a host administrator (else 403).
   */
  .get('/wsObtenerCheckIn', async (c) => {
    const q = parse(getCheckInQuery, c.req.query());
    const m = await requireMember(c, { id: q.idCorporativo });
    if (!mayActOnCheckInOf(m, q.idUsuario)) throw forbidden();
    const deps = c.get('deps');
    return c.json(await currentCheckIn(deps.db, m.corporate.id, q.idUsuario, deps.clock()));
  })

  /**
   * `POST /api/corporativos/:id/check-ins` — saves a check-in (spec §7: `check, idShowroom,
   * nombreShowroom, coordenadas, tipoRegistro?`).
   *
   * Body: `{ check: true, idShowroom, nombreShowroom?, coordenadas: { _latitude, _longitude,
   * _accuracy (m) } }` by position; or `{ check: true, tipoRegistro: 'QR', folio, idShowroom?,
   * coordenadas? }` by the showroom's QR code (the folio names the showroom). The server decides
   * by its own distance (core/geo.ts, the same rule as the screen): the name and any distance
   * the client has are not trusted.
   *
   * → 201 CheckIn (created), or 200 with the check-in already active (nothing written).
   *
   * Errors: 400 VALIDATION (shape), POSITION_INVALID (a coordinate out of range, or an accuracy
   * negative or over 5000 m); 403 FORBIDDEN (a host administrator), FOLIO_INVALID (tampered,
   * another corporate's, or its showroom is not `idShowroom`); 404 SHOWROOM_NOT_FOUND (unknown
   * here, or another corporate's); 409 SHOWROOM_INACTIVE; 410 FOLIO_EXPIRED (another day's
   * folio); 422 CHECK_IN_TOO_FAR `{ distanciaKm, radioKm }`.
   */
  .post('/corporativos/:id/check-ins', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const body = parse(saveBody, await jsonBody(c));
    if (!mayCheckIn(m.role)) throw new ApiError(403, 'FORBIDDEN', 'check_in_forbidden');
    const deps = c.get('deps');
    const position = body.coordenadas
      ? {
          latitude: body.coordenadas._latitude,
          longitude: body.coordenadas._longitude,
          accuracy: body.coordenadas._accuracy,
        }
      : null;
    let idShowroom = body.idShowroom;
    let via: CheckInVia;
    if (body.tipoRegistro === 'QR') {
      const folio = await verifyFolio(deps.shareKeys, body.folio ?? '');
      if (!folio || folio.c !== m.corporate.id) throw folioInvalid();
      if (idShowroom !== undefined && idShowroom !== folio.s) throw folioInvalid();
      if (folio.d !== folioDay(deps.clock(), corporateZone(m.corporate)))
        throw new ApiError(410, 'FOLIO_EXPIRED', 'folio_expired');
      idShowroom = folio.s;
      via = { tipoRegistro: 'QR', position };
    } else {
      if (!position) throw new Error('check-in: validated body without coordenadas');
      via = { tipoRegistro: 'Geolocalizacion', position };
    }
    const result = await saveCheckIn(deps, m, idShowroom ?? '', via);
    return c.json(result.checkIn, result.creado ? 201 : 200);
  })

  /**
   * `POST /api/corporativos/:id/check-ins/:checkinId/historial-check-in` → 200 the check-in as
   * the history has it (CheckInHistoryRow: the check-in with `nombreUsuario` and
   * `nombreUsuarioSalida`). The history is written by the check-in itself (its events), so this
   * call confirms it and writes nothing. 404 CHECK_IN_NOT_FOUND when the check-in is not the
   * corporate's or not the caller's (a host administrator may read anyone's).
   */
  .post('/corporativos/:id/check-ins/:checkinId/historial-check-in', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    parse(z.strictObject({}), await jsonBody(c));
    const checkinId = parse(id, c.req.param('checkinId'));
    const row = await historyRow(c.get('deps').db, m.corporate.id, checkinId);
    if (!row || !mayActOnCheckInOf(m, row.idUsuario)) throw checkInNotFound();
    return c.json(row);
  })

  /**
   * `POST /api/corporativos/:id/check-ins/:checkinId/check-out/:idUsuario` (body `{}` or
   * `{ checkInActivo: false }`) ends the check-in → 200 the check-in with `checkInActivo` false,
   * `fechaSalida`, `motivoSalida` and `idUsuarioSalida`. Idempotent: a check-in that already
   * ended (by hand or by its expiry) is answered as it is and nothing is written. The adviser
   * checks out their own; a host administrator anyone's (403 otherwise). 404
   * CHECK_IN_NOT_FOUND when the check-in is not the corporate's or not `idUsuario`'s.
   */
  .post('/corporativos/:id/check-ins/:checkinId/check-out/:x', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    parse(checkOutBody, await jsonBody(c));
    const checkinId = parse(id, c.req.param('checkinId'));
    const idUsuario = parse(id, c.req.param('x'));
    if (!mayActOnCheckInOf(m, idUsuario)) throw forbidden();
    const deps = c.get('deps');
    const found = await findCheckIn(deps.db, m.corporate.id, checkinId);
    if (!found || found.idUsuario !== idUsuario) throw checkInNotFound();
    await checkOut(deps, m, idUsuario, checkinId);
    const after = await findCheckIn(deps.db, m.corporate.id, checkinId);
    if (!after) throw checkInNotFound();
    return c.json(after);
  })

  /**
   * `PUT /api/corporativos/:id/config-corporativo/showroom/:showRoomId` (spec §7) body
   * `{ nombre, activo, coordenadas: { _latitude, _longitude, _accuracy? }, idDesarrollo? }` sets
   * the showroom (an unknown id adds it) → 200 Showroom (201 when added). The same values again
   * write nothing. Host administrators only (403). 400 VALIDATION naming the fields (empty
   * name, latitude beyond ±90, longitude beyond ±180, negative accuracy); 404
   * DEVELOPMENT_NOT_FOUND for an `idDesarrollo` that is not one of the corporate's.
   */
  .put('/corporativos/:id/config-corporativo/showroom/:showRoomId', async (c) => {
    const m = await requireShowroomAdmin(c);
    const sid = parse(showroomId, c.req.param('showRoomId'));
    const body = parse(showroomBody, await jsonBody(c));
    const result = await configureShowroom(c.get('deps'), m, { id: sid, ...body });
    return c.json(result.showroom, result.nuevo ? 201 : 200);
  })

  /**
   * `GET /api/corporativos/:id/showrooms/asesores` → `{ id, nombre, apellidos }[]`: the
   * corporate's approved members who are not host administrators, who may host a guest. Host
   * administrators only.
   */
  .get('/corporativos/:id/showrooms/asesores', async (c) => {
    const m = await requireShowroomAdmin(c);
    const { rows } = await c.get('deps').db.query<{
      id: string;
      doc: {
        nombre: string;
        apellidos?: string;
        roles: Record<string, string>;
        info?: { estatus: string };
      };
    }>(
      `SELECT id, doc FROM rm_users WHERE doc->'corporativos' @> jsonb_build_array($1::text)
       ORDER BY doc->>'nombre', doc->>'apellidos', id`,
      [m.corporate.id],
    );
    const roles = new Map(m.corporate.roles.map((r) => [r.id, r]));
    return c.json(
      rows
        // Not host administrators, nor people who cannot come (invited, deactivated).
        .filter(
          ({ doc }) =>
            !isHostAdmin(roles.get(doc.roles[m.corporate.id] ?? '')) &&
            userStatus(doc) === 'activo',
        )
        .map(({ id: uid, doc }) => ({
          id: uid,
          nombre: doc.nombre,
          apellidos: doc.apellidos ?? '',
        })),
    );
  })

  /**
   * `GET /api/corporativos/:id/showrooms/:sid/folio` → `{ folio, url, dia, idShowroom,
   * nombreShowroom, activo }`: today's signed folio of the showroom (valid until midnight in the
   * corporate's time zone) and the check-in link its QR code carries. Host administrators only.
   */
  .get('/corporativos/:id/showrooms/:sid/folio', async (c) => {
    const m = await requireShowroomAdmin(c);
    const showroom = await requireShowroom(c, m);
    const deps = c.get('deps');
    const dia = folioDay(deps.clock(), corporateZone(m.corporate));
    const folio = await signFolio(deps.shareKeys, { c: m.corporate.id, s: showroom.id, d: dia });
    return c.json({
      folio,
      url: publicOrigin(c) + folioPath(m.corporate.slug, folio),
      dia,
      idShowroom: showroom.id,
      nombreShowroom: showroom.nombre,
      activo: showroom.activo,
    });
  })

  /**
   * `GET /api/corporativos/:id/showrooms/:sid/qr.svg` → `image/svg+xml`: the QR code of today's
   * check-in link (as `…/folio` answers it), for the printable poster. Host administrators only.
   */
  .get('/corporativos/:id/showrooms/:sid/qr.svg', async (c) => {
    const m = await requireShowroomAdmin(c);
    const showroom = await requireShowroom(c, m);
    const deps = c.get('deps');
    const dia = folioDay(deps.clock(), corporateZone(m.corporate));
    const folio = await signFolio(deps.shareKeys, { c: m.corporate.id, s: showroom.id, d: dia });
    const svg = await qrSvg(publicOrigin(c) + folioPath(m.corporate.slug, folio));
    c.header('Content-Type', 'image/svg+xml; charset=utf-8');
    return c.body(svg, 200);
  })

  /**
   * `GET /api/corporativos/:id/showrooms/:sid/en-turno` → CheckInHistoryRow[]: who is checked in
   * at the showroom now (active, not past 43200 s), earliest first. Host administrators only.
   */
  .get('/corporativos/:id/showrooms/:sid/en-turno', async (c) => {
    const m = await requireShowroomAdmin(c);
    const showroom = await requireShowroom(c, m);
    const deps = c.get('deps');
    return c.json(await onDuty(deps.db, m.corporate.id, showroom.id, deps.clock()));
  })

  /**
   * `GET /api/corporativos/:id/showrooms/:sid/check-ins?fecha=YYYY-MM-DD` → CheckInHistoryRow[]:
   * the check-ins made at the showroom that day in the corporate's time zone (default today),
   * oldest first, ended or not. The CSV export is built from it (core/check-in-history.ts).
   * Host administrators only; 400 for a day that is not a calendar day.
   */
  .get('/corporativos/:id/showrooms/:sid/check-ins', async (c) => {
    const m = await requireShowroomAdmin(c);
    const q = parse(dayQuery, c.req.query());
    const showroom = await requireShowroom(c, m);
    const deps = c.get('deps');
    const zone = corporateZone(m.corporate);
    const fecha = q.fecha ?? localDay(deps.clock(), zone);
    c.header('X-Fecha', fecha);
    return c.json(
      await showroomHistory(deps.db, m.corporate.id, showroom.id, dayBounds(fecha, zone)),
    );
  })

  /**
   * `GET /api/corporativos/:id/showrooms/:sid/invitados[?fecha | ?desde]` → Guest[] with
   * `nombreAsesor`, by visit day then name: of one day, from a day on, or all. Host
   * administrators only.
   */
  .get('/corporativos/:id/showrooms/:sid/invitados', async (c) => {
    const m = await requireShowroomAdmin(c);
    const q = parse(guestQuery, c.req.query());
    const showroom = await requireShowroom(c, m);
    return c.json(await showroomGuests(c.get('deps').db, m.corporate.id, showroom.id, q));
  })

  /**
   * `POST /api/corporativos/:id/showrooms/:sid/invitados` body `{ nombre, contacto?, fechaVisita
   * (YYYY-MM-DD), idAsesor }` → 201 Guest. 400 VALIDATION naming the fields, GUEST_ADVISER_INVALID
   * (not an approved member); 404 SHOWROOM_NOT_FOUND. Host administrators only.
   */
  .post('/corporativos/:id/showrooms/:sid/invitados', async (c) => {
    const m = await requireShowroomAdmin(c);
    const body = parse(guestBody, await jsonBody(c));
    const sid = parse(id, c.req.param('sid'));
    return c.json(await inviteGuest(c.get('deps'), m, sid, body), 201);
  })

  /**
   * `DELETE /api/corporativos/:id/showrooms/:sid/invitados/:gid` → 200 `{ id }`; a guest already
   * removed answers the same and writes nothing. 404 GUEST_NOT_FOUND. Host administrators only.
   */
  .delete('/corporativos/:id/showrooms/:sid/invitados/:gid', async (c) => {
    const m = await requireShowroomAdmin(c);
    const showroom = await requireShowroom(c, m);
    const gid = parse(id, c.req.param('gid'));
    await removeGuest(c.get('deps'), m, showroom.id, gid);
    return c.json({ id: gid });
  })

  /**
   * `POST /api/corporativos/:id/showrooms/:sid/invitados/:gid/llegada` (no body) → 200 Guest with
   * `llegada`: the guest came in. Marking again answers the same and writes nothing. Their
   * appointment of the day at this showroom (matched by the guest's e-mail or phone) is marked
   * attended and its adviser told; with none, the hosting adviser is told. 404 GUEST_NOT_FOUND.
   * Host administrators only.
   */
  .post('/corporativos/:id/showrooms/:sid/invitados/:gid/llegada', async (c) => {
    const m = await requireShowroomAdmin(c);
    const showroom = await requireShowroom(c, m);
    const gid = parse(id, c.req.param('gid'));
    return c.json(await markGuestArrived(c.get('deps'), m, showroom.id, gid));
  });
