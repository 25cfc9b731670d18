/**
 * The public capture's edge (`POST /api/public/registro`, signed out, for the corporates'
 * website forms): its rate limit per client address, and the form read (JSON or form-encoded)
 * and checked against the corporate into lead fields. What it writes is commands.ts
 * `captureLead`.
 */
import { z } from 'zod';
import { isValidEmail, isValidPhone, normalizeLeadFields, type LeadFields } from '../../core/lead';
import { campaignFor } from '../../core/development-settings';
import type { Corporate } from '../../core/types';
import type { CorporateConfig } from '../catalogue/events';
import type { Db, Queryable } from '../store/db';
import { findCorporate, type Ctx } from '../http/context';
import {
  ApiError,
  badRequest,
  isUnstorableText,
  jsonBody,
  parse,
  unstorableText,
} from '../http/errors';
import { lockKeys, retryAfterSeconds } from '../http/rate-limit';

/** How many public captures one client address may send per hour. */
export const PUBLIC_CAPTURE_LIMIT_PER_HOUR = 20;

/**
 * Seconds the address must wait (the attempt is not counted), or 0: the attempt is recorded,
 * whatever its outcome. Counting and recording are one transaction under a lock of the address,
 * so of 100 simultaneous captures from one address, on any number of processes, exactly
 * {@link PUBLIC_CAPTURE_LIMIT_PER_HOUR} pass. Attempts older than the window are purged on a
 * schedule ({@link purgeCaptureAttempts}).
 */
export async function captureRetryAfter(db: Db, address: string, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    await lockKeys(tx, [`lead-capture:${address}`]);
    const log = { table: 'lead_capture_attempts', column: 'address' } as const;
    const wait = await retryAfterSeconds(tx, log, address, {
      limit: PUBLIC_CAPTURE_LIMIT_PER_HOUR,
      now,
    });
    if (wait > 0) return wait;
    await tx.query('INSERT INTO lead_capture_attempts (address, at) VALUES ($1, $2)', [
      address,
      now.toISOString(),
    ]);
    return 0;
  });
}

/** Forgets capture attempts the hourly limit no longer counts (housekeeping); answers how many. */
export async function purgeCaptureAttempts(q: Queryable, now: Date): Promise<number> {
  const since = new Date(now.getTime() - 3600_000).toISOString();
  const { rows } = await q.query<{ n: number }>(
    'WITH gone AS (DELETE FROM lead_capture_attempts WHERE at <= $1 RETURNING 1) SELECT count(*)::int AS n FROM gone',
    [since],
  );
  return rows[0]?.n ?? 0;
}

const captureQuery = z.strictObject({
  medio: z.string().min(1).max(120),
  corp: z.string().min(1).max(120),
});

const captureBody = z.strictObject({
  nombre: z.string().max(120),
  apellidos: z.string().max(120).optional(),
  email: z.string().max(254).optional(),
  telefono: z.string().max(40).optional(),
  celular: z.string().max(40).optional(),
  mensaje: z.string().max(2000).optional(),
  /** Slug (or id) of one of the corporate's developments. */
  desarrollo: z.string().max(120).optional(),
  tipo: z.string().max(120).optional(),
});

async function readCaptureBody(c: Ctx): Promise<unknown> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (
    type.startsWith('application/x-www-form-urlencoded') ||
    type.startsWith('multipart/form-data')
  ) {
    let form: Awaited<ReturnType<typeof c.req.parseBody>>;
    try {
      form = await c.req.parseBody();
    } catch {
      // A multipart type over a body that is not one (no boundary, no parts): not a form.
      throw badRequest([{ path: '', code: 'invalid_form' }]);
    }
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(form)) {
      if (typeof v !== 'string') throw badRequest([{ path: k, code: 'invalid_type' }]);
      if (isUnstorableText(k) || isUnstorableText(v)) throw unstorableText(k);
      if (v !== '') out[k] = v;
    }
    return out;
  }
  return jsonBody(c);
}

/** A capture as checked: the corporate, the lead's fields, the medium and the message. */
export interface Capture {
  corporate: Corporate & CorporateConfig;
  medio: string;
  fields: LeadFields;
  /** The visitor's message, trimmed ('' when none). */
  mensaje: string;
}

/**
 * Reads and checks a capture: 404 for an unknown corporate; 400 for an unknown medium, a form
 * without an email or a phone, a malformed one, a missing name or an unknown development.
 */
export async function readCapture(c: Ctx): Promise<Capture> {
  const db = c.get('deps').db;
  const query = parse(captureQuery, c.req.query());
  const body = parse(captureBody, await readCaptureBody(c));
  const corporate = (await findCorporate(db, { slug: query.corp })) as Capture['corporate'] | null;
  if (!corporate) throw new ApiError(404, 'CORPORATE_NOT_FOUND', 'corporate_not_found');
  // The medium is one of the corporate's, or a campaign of the development the form names
  // (spec §3 `campanias`; core/development-settings.ts `campaignFor`), checked below.
  const knownMedium = corporate.mediosContacto.includes(query.medio);

  const issues: { path: string; code: string }[] = [];
  const fields = normalizeLeadFields({
    nombre: body.nombre,
    apellidos: body.apellidos ?? '',
    email: body.email ?? null,
    telefono: body.telefono ?? null,
    celular: body.celular ?? null,
    medioContacto: query.medio,
    tipo: body.tipo ?? null,
    status: corporate.statusLeads?.[0]?.id ?? null,
    desarrollo: null,
  });
  if (!fields.email && !fields.telefono && !fields.celular)
    issues.push({ path: 'email', code: 'required' });
  if (fields.email && !isValidEmail(fields.email))
    issues.push({ path: 'email', code: 'invalid_email' });
  for (const p of ['telefono', 'celular'] as const) {
    const v = fields[p];
    if (v && !isValidPhone(v)) issues.push({ path: p, code: 'invalid_phone' });
  }
  let campaign: string | null = null;
  if (body.desarrollo) {
    const { rows } = await db.query<{ id: string; campanias: string[] | null }>(
      "SELECT id, doc->'campanias' AS campanias FROM rm_developments WHERE corporate_id = $1 AND (slug = $2 OR id = $2)",
      [corporate.id, body.desarrollo],
    );
    if (rows[0]) {
      fields.desarrollo = rows[0].id;
      campaign = knownMedium
        ? null
        : campaignFor({ campanias: rows[0].campanias ?? [] }, query.medio);
    } else issues.push({ path: 'desarrollo', code: 'unknown_value' });
  }
  if (!knownMedium && campaign === null)
    throw badRequest([{ path: 'medio', code: 'unknown_value' }]);
  // A campaign's lead comes through that campaign, named as the development names it.
  const medio = campaign ?? query.medio;
  fields.medioContacto = medio;
  if (fields.nombre === '') issues.push({ path: 'nombre', code: 'required' });
  if (issues.length > 0) throw badRequest(issues);
  return { corporate, medio, fields, mensaje: body.mensaje?.trim() ?? '' };
}
