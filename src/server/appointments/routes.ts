/**
 * Appointments (issue 23; spec §3 Calendar event, §7 Appointments, §9): parse with zod,
 * authorise (core/permissions.ts), run the command (commands.ts) or the query (queries.ts),
 * answer. The corporate comes from the session's membership (403 for non-members). Every
 * refusal is `[{ errorCode, message, …extra }]` in the caller's language, and nothing is written.
 *
 * The spec's calls: `GET wsObtenerCitas`, `POST …/citas`, `PUT` and `DELETE …/citas/{citaId}`.
 * Ours: the overlaps of a slot before booking, an appointment's `.ics`, and each user's private
 * calendar subscription (calendar-feed.ts).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { ENVIAR_ANTES_DE, TIPOS_CITA, isInstant } from '../../core/appointment';
import { leadContactKeys } from '../../core/lead';
import { mayActOnAppointment } from '../../core/permissions';
import { requireMember, type Env } from '../http/context';
import { ApiError, badRequest, jsonBody, lang, parse } from '../http/errors';
import { recordWalkInArrival } from './arrivals';
import { appointmentIcs, feedFor, isSubscribed, subscribe, unsubscribe } from './calendar-feed';
import {
  appointmentNotFound,
  cancelAppointment,
  changeAppointment,
  scheduleAppointment,
} from './commands';
import {
  bookableAdvisers,
  bookableLeads,
  findAppointment,
  findConflicts,
  listAppointments,
  MAX_RANGE_DAYS,
} from './queries';

const id = z.string().min(1).max(64);
/** An instant with its offset (`2026-11-26T17:00:00.000Z`); the core checks it is a real day. */
const instant = z.string().max(40);
const contactText = z.string().max(160).optional();
const arrivalBody = z.strictObject({
  idDesarrollo: id,
  email: contactText,
  telefono: contactText,
  celular: contactText,
});
/** `wsObtenerCitas`'s bounds: an instant, or a calendar day (`YYYY-MM-DD`, midnight UTC). */
const bound = z
  .string()
  .max(40)
  .transform((s, ctx) => {
    const value = /^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s;
    if (!isInstant(value)) {
      ctx.addIssue({ code: 'custom', message: 'an ISO instant or YYYY-MM-DD' });
      return z.NEVER;
    }
    return new Date(value);
  });

const listQuery = z
  .strictObject({
    idCorporativo: id,
    fechaInicio: bound,
    fechaFin: bound,
    idAsesor: id.optional(),
    idShowroom: id.optional(),
    idDesarrollo: id.optional(),
    idLead: id.optional(),
    canceladas: z.enum(['true', 'false']).optional(),
  })
  .superRefine((q, ctx) => {
    // A bound already refused (longer than 40) reaches here as its string, untransformed.
    if (!(q.fechaInicio instanceof Date) || !(q.fechaFin instanceof Date)) return;
    const span = q.fechaFin.getTime() - q.fechaInicio.getTime();
    if (span <= 0)
      ctx.addIssue({ code: 'custom', path: ['fechaFin'], message: 'after fechaInicio' });
    else if (span > MAX_RANGE_DAYS * 86_400_000)
      ctx.addIssue({
        code: 'custom',
        path: ['fechaFin'],
        message: `at most ${MAX_RANGE_DAYS} days`,
      });
  });

/** The fields the server computes; a client that sends them back (the spec's shape) is ignored. */
const computed = {
  id: z.string().max(64).optional(),
  fechaRecordatorio: z.string().max(40).nullable().optional(),
  idTareaProgramada: z.string().max(200).nullable().optional(),
};

const createBody = z.strictObject({
  ...computed,
  idDesarrollo: id,
  idShowroom: id,
  fechaInicio: instant,
  fechaFin: instant,
  /** What the person typed; absent, null or blank: none (the automatic title, see the POST). */
  titulo: z.string().max(200).nullable().optional(),
  tipo: z.enum(TIPOS_CITA).default('visita'),
  idLead: id,
  idAsesor: id.optional(),
  activo: z.literal(true).optional(),
  enviarRecordatorio: z.boolean().default(true),
  enviarAntesDe: z.enum(ENVIAR_ANTES_DE).default('10_MIN'),
});

const updateBody = z.strictObject({
  ...computed,
  idDesarrollo: id.optional(),
  idShowroom: id.optional(),
  fechaInicio: instant.optional(),
  fechaFin: instant.optional(),
  /** Blank or null: back to the automatic title; the automatic one as shown: no change. */
  titulo: z.string().max(200).nullable().optional(),
  tipo: z.enum(TIPOS_CITA).optional(),
  /** The lead cannot change: an appointment is with its lead. Sent back unchanged, it is fine. */
  idLead: id.optional(),
  idAsesor: id.optional(),
  activo: z.boolean().optional(),
  enviarRecordatorio: z.boolean().optional(),
  enviarAntesDe: z.enum(ENVIAR_ANTES_DE).optional(),
  asistencia: z.enum(['asistio', 'no_asistio']).optional(),
});

const conflictsQuery = z
  .strictObject({
    idAsesor: id,
    idShowroom: id,
    fechaInicio: instant.refine(isInstant),
    fechaFin: instant.refine(isInstant),
    excluir: id.optional(),
  })
  // A slot ends after it starts, as a booking must (a list's range and a booking refuse it too).
  .refine((q) => Date.parse(q.fechaFin) > Date.parse(q.fechaInicio), {
    path: ['fechaFin'],
    message: 'after fechaInicio',
  });

export const appointmentRoutes = new Hono<Env>()
  /**
   * `GET /api/wsObtenerCitas?idCorporativo&fechaInicio&fechaFin[&idAsesor&idShowroom&
   * idDesarrollo&idLead&canceladas]` → CitaView[] (the appointment with `nombreLead`,
   * `nombreAsesor`, `nombreShowroom`, and `titulo` filled in: the typed one, or the automatic one
   * in the request's language with `tituloAutomatico: true`) overlapping the range, earliest
   * first: the caller's own
   * for an adviser with Propios; every adviser's for managers and host administrators. Bounds are
   * instants or days (`YYYY-MM-DD`, UTC midnight); at most 62 days. Cancelled ones only with
   * `canceladas=true`. 400 for bad bounds.
   */
  .get('/wsObtenerCitas', async (c) => {
    const q = parse(listQuery, c.req.query());
    const m = await requireMember(c, { id: q.idCorporativo });
    return c.json(
      await listAppointments(
        c.get('deps').db,
        m,
        {
          desde: q.fechaInicio,
          hasta: q.fechaFin,
          ...(q.idAsesor ? { idAsesor: q.idAsesor } : {}),
          ...(q.idShowroom ? { idShowroom: q.idShowroom } : {}),
          ...(q.idDesarrollo ? { idDesarrollo: q.idDesarrollo } : {}),
          ...(q.idLead ? { idLead: q.idLead } : {}),
          canceladas: q.canceladas === 'true',
        },
        lang(c),
      ),
    );
  })

  /**
   * `POST /api/corporativos/:id/citas` body the appointment plus `activo: true` (spec §7):
   * `{ idDesarrollo, idShowroom, fechaInicio, fechaFin, titulo?, tipo?, idLead, idAsesor?,
   * enviarRecordatorio? (true), enviarAntesDe? ('10_MIN' | '5_MIN') }` → 201 `{ …CitaView,
   * conflictos }`: the appointment and the active ones it overlaps (same adviser or showroom; a
   * warning, it is booked anyway). The adviser defaults to the lead's. A `titulo` the person
   * typed is kept as typed (trimmed); none (absent, null, blank) stores no text, and every reader
   * sees the automatic title, kind and client, in their language (core/appointment-title.ts):
   * here the request's (`Accept-Language`), with `tituloAutomatico: true`.
   *
   * Errors: 400 VALIDATION (fields named: dates, end not after start, more than a day, title,
   * kind, offset), APPOINTMENT_IN_PAST, SHOWROOM_INACTIVE, SHOWROOM_NOT_IN_DEVELOPMENT,
   * ADVISER_INVALID; 403 FORBIDDEN (another adviser, for an adviser with Propios); 404
   * LEAD_NOT_FOUND (absent, deleted, another corporate's or out of scope), SHOWROOM_NOT_FOUND,
   * DEVELOPMENT_NOT_FOUND.
   */
  .post('/corporativos/:id/citas', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const body = parse(createBody, await jsonBody(c));
    const result = await scheduleAppointment(
      c.get('deps'),
      m,
      {
        idDesarrollo: body.idDesarrollo,
        idShowroom: body.idShowroom,
        fechaInicio: body.fechaInicio,
        fechaFin: body.fechaFin,
        titulo: body.titulo ?? null,
        tipo: body.tipo,
        idLead: body.idLead,
        enviarRecordatorio: body.enviarRecordatorio,
        enviarAntesDe: body.enviarAntesDe,
        ...(body.idAsesor ? { idAsesor: body.idAsesor } : {}),
      },
      lang(c),
    );
    return c.json({ ...result.cita, conflictos: result.conflictos }, 201);
  })

  /**
   * `GET /api/corporativos/:id/citas/conflictos?idAsesor&idShowroom&fechaInicio&fechaFin
   * [&excluir]` → the active appointments a slot would overlap (the booking form's warning
   * before saving): `{ id, titulo, fechaInicio, fechaFin, idAsesor, nombreAsesor, idShowroom,
   * nombreShowroom, nombreLead, por: ('asesor'|'showroom')[] }[]`. 400 VALIDATION for bad
   * instants or an end not after the start.
   */
  .get('/corporativos/:id/citas/conflictos', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const q = parse(conflictsQuery, c.req.query());
    return c.json(
      await findConflicts(
        c.get('deps').db,
        m,
        {
          id: q.excluir ?? '',
          idAsesor: q.idAsesor,
          idShowroom: q.idShowroom,
          fechaInicio: q.fechaInicio,
          fechaFin: q.fechaFin,
        },
        lang(c),
      ),
    );
  })

  /**
   * `POST /api/corporativos/:id/citas/llegada` body `{ idDesarrollo, email?, telefono?, celular? }`
   * → 200 `{ id, fechaInicio, idShowroom, idAsesor, nombreAsesor }`: a walk-in registration met
   * a client the corporate already has; their appointment of today at one of the development's
   * showrooms is marked attended and its adviser told (appointments/arrivals.ts). 400 VALIDATION
   * without any contact; 404 APPOINTMENT_NOT_FOUND when there is no such client or appointment
   * (nothing written).
   */
  .post('/corporativos/:id/citas/llegada', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const body = parse(arrivalBody, await jsonBody(c));
    const contact = leadContactKeys(body);
    if (contact.email === '' && contact.phones.length === 0)
      throw badRequest([{ path: 'email', code: 'required' }]);
    return c.json(
      await recordWalkInArrival(c.get('deps'), m, { idDesarrollo: body.idDesarrollo, contact }),
    );
  })

  /**
   * `GET /api/corporativos/:id/citas/clientes?q=` → `{ id, nombre, email, desarrollo,
   * idVendedor, nombreVendedor }[]` (at most 20): the leads the caller may book with, matching
   * the text. A host administrator finds every lead of the corporate (whose demo role is
   * Propios, so wsObtenerLeads shows them none).
   */
  .get('/corporativos/:id/citas/clientes', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const query = parse(z.strictObject({ q: z.string().max(120).optional() }), c.req.query());
    return c.json(await bookableLeads(c.get('deps').db, m, query.q ?? ''));
  })

  /**
   * `GET /api/corporativos/:id/citas/asesores` → `{ id, nombre }[]`: the advisers the caller may
   * book for (everyone's for managers and host administrators; themselves otherwise).
   */
  .get('/corporativos/:id/citas/asesores', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    parse(z.strictObject({}), c.req.query());
    return c.json(await bookableAdvisers(c.get('deps').db, m));
  })

  /**
   * `GET /api/corporativos/:id/citas/:citaId` → CitaView. 404 APPOINTMENT_NOT_FOUND when it is
   * not the corporate's or not the caller's to see.
   */
  .get('/corporativos/:id/citas/:citaId', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const citaId = parse(id, c.req.param('citaId'));
    const cita = await findAppointment(c.get('deps').db, m.corporate, citaId, lang(c));
    if (!cita || !mayActOnAppointment(m, cita)) throw appointmentNotFound();
    return c.json(cita);
  })

  /**
   * `GET /api/corporativos/:id/citas/:citaId/cita.ics[?idioma=es|en]` → `text/calendar`: the
   * appointment as an iCalendar file with its reminder as a `VALARM` (a download for the phone's
   * calendar). An automatic title is written in `idioma` (the app's language: a download link
   * carries the browser's `Accept-Language`, not the app's), else the request's.
   */
  .get('/corporativos/:id/citas/:citaId/cita.ics', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const citaId = parse(id, c.req.param('citaId'));
    const deps = c.get('deps');
    const idioma = c.req.query('idioma');
    const language = idioma === 'es' || idioma === 'en' ? idioma : lang(c);
    const cita = await findAppointment(deps.db, m.corporate, citaId, language);
    if (!cita || !mayActOnAppointment(m, cita)) throw appointmentNotFound();
    c.header('Content-Type', 'text/calendar; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="cita-${cita.id}.ics"`);
    return c.body(appointmentIcs([cita], { now: deps.clock(), nombre: m.corporate.nombre }));
  })

  /**
   * `PUT /api/corporativos/:id/citas/:citaId` body any of `{ fechaInicio, fechaFin, idAsesor,
   * titulo, tipo, idShowroom, idDesarrollo, enviarRecordatorio, enviarAntesDe, activo,
   * asistencia ('asistio' | 'no_asistio') }` (the whole appointment sent back is fine: unchanged
   * fields write nothing, and an automatic title sent back as it was shown, in either language,
   * stays automatic) → 200 `{ …CitaView, conflictos }`. A blank or null `titulo` goes back to the
   * automatic title. Moving it moves its reminder; `activo: false` cancels. 400 as the POST, and for a different `idLead`; 403 giving it to
   * another adviser without the right; 404 APPOINTMENT_NOT_FOUND; 409 APPOINTMENT_CANCELLED
   * (a change to a cancelled appointment).
   */
  .put('/corporativos/:id/citas/:citaId', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const body = parse(updateBody, await jsonBody(c));
    const citaId = parse(id, c.req.param('citaId'));
    const deps = c.get('deps');
    const existing = await findAppointment(deps.db, m.corporate, citaId, lang(c));
    if (!existing || !mayActOnAppointment(m, existing)) throw appointmentNotFound();
    if (body.idLead !== undefined && body.idLead !== existing.idLead)
      throw badRequest([{ path: 'idLead', code: 'immutable' }]);
    if (body.id !== undefined && body.id !== citaId)
      throw badRequest([{ path: 'id', code: 'immutable' }]);
    const { id: _id, fechaRecordatorio: _f, idTareaProgramada: _t, idLead: _l, ...change } = body;
    const result = await changeAppointment(deps, m, citaId, change, lang(c));
    return c.json({ ...result.cita, conflictos: result.conflictos });
  })

  /**
   * `DELETE /api/corporativos/:id/citas/:citaId` → 200 the appointment (CitaView) with `activo` false
   * (cancelled; its reminder removed). Cancelling again answers the same and writes nothing.
   * 404 APPOINTMENT_NOT_FOUND.
   */
  .delete('/corporativos/:id/citas/:citaId', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const citaId = parse(id, c.req.param('citaId'));
    const deps = c.get('deps');
    const existing = await findAppointment(deps.db, m.corporate, citaId, lang(c));
    if (!existing || !mayActOnAppointment(m, existing)) throw appointmentNotFound();
    return c.json(await cancelAppointment(deps, m, citaId, lang(c)));
  })

  /**
   * `GET /api/corporativos/:id/calendario/suscripcion` → `{ activa }`: whether the caller has a
   * calendar subscription in this corporate.
   */
  .get('/corporativos/:id/calendario/suscripcion', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    return c.json({ activa: await isSubscribed(c.get('deps').db, m.user.id, m.corporate.id) });
  })

  /**
   * `POST /api/corporativos/:id/calendario/suscripcion` → 201 `{ url, activa: true }`: a new
   * private iCalendar URL of the caller's appointments (with their reminders as alarms); any
   * earlier URL stops working. Keep it secret: whoever has it reads the calendar.
   */
  .post('/corporativos/:id/calendario/suscripcion', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    parse(z.strictObject({}), await jsonBody(c));
    const token = await subscribe(c.get('deps'), m.user.id, m.corporate.id);
    const origin = process.env.VITRINA_PUBLIC_URL?.replace(/\/+$/, '') ?? new URL(c.req.url).origin;
    return c.json({ url: `${origin}/api/calendario/${token}.ics`, activa: true }, 201);
  })

  /** `DELETE /api/corporativos/:id/calendario/suscripcion` → `{ activa: false }`: revokes the URL. */
  .delete('/corporativos/:id/calendario/suscripcion', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    await unsubscribe(c.get('deps').db, m.user.id, m.corporate.id);
    return c.json({ activa: false });
  })

  /**
   * `GET /api/calendario/:token.ics` (no session: the calendar app polls it) → `text/calendar`,
   * the subscriber's appointments from a month back to a year ahead. 404 for a forged, revoked or
   * replaced token, or a user who left the corporate.
   */
  .get('/calendario/:file', async (c) => {
    const file = c.req.param('file');
    const token = file.endsWith('.ics') ? file.slice(0, -4) : file;
    const ics = token.length <= 600 ? await feedFor(c.get('deps'), token) : null;
    if (ics === null) throw new ApiError(404, 'NOT_FOUND', 'calendar_feed_not_found');
    c.header('Content-Type', 'text/calendar; charset=utf-8');
    c.header('Cache-Control', 'private, no-store');
    return c.body(ics);
  });
