/**
 * The signed-out people calls (issue 16): password recovery, setting a password from a mailed
 * link (an invitation or a recovery), and a broker's self-registration.
 *
 * - `POST /api/auth/recover-password { email }` answers the same (200), in the same time, for an
 *   address with an account and one without: the work differs only inside one transaction and
 *   the answer waits for a fixed floor. The e-mail carries a single-use link (30 minutes).
 * - `GET /api/auth/enlace?tipo&token` tells the page whose link it is (name, e-mail, corporate).
 * - `POST /api/auth/restablecer-contrasena` and `POST /api/auth/aceptar-invitacion
 *   { token, password }` set the password (the spec's rule), use the link up and end every
 *   session of the user.
 * - `GET /api/public/registro/:slug` and `POST /api/solicitudes-usuarios/registrar`: the
 *   corporate's registration page and the broker's request ('Falta aprobación').
 * Recovery and registration are rate-limited per client address and per e-mail address.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { Corporate, User } from '../../core/types';
import { isStrongPassword, maySignIn, PASSWORD_MAX_LENGTH } from '../../core/user';
import { streams } from '../catalogue/events';
import { ApiError, jsonBody, lang, parse } from '../http/errors';
import { findCorporate, findUser, type Env } from '../http/context';
import { clientAddress, rateLimited } from '../http/rate-limit';
import { enqueueMail } from '../mail/outbox';
import { runCommand } from '../store/command-handler';
import { decideUserIn, findUserByEmail, mailLang, registerBroker } from '../users/people';
import { hashPassword } from './passwords';
import {
  endSessions,
  issueToken,
  markTokenUsed,
  openToken,
  revokeTokens,
  takePeopleAttempt,
  TOKEN_TTL_MS,
  type TokenKind,
} from './people-tokens';

/** The least time a recovery request takes, whatever the address (known or not). */
export const RECOVERY_FLOOR_MS = 400;

const email = z.string().trim().toLowerCase().email().max(320);
const recoverBody = z.strictObject({ email });
const token = z.string().min(1).max(200);
const setPasswordBody = z.strictObject({
  token,
  password: z.string().max(PASSWORD_MAX_LENGTH * 4),
  idioma: z.enum(['es', 'en']).optional(),
});
const linkQuery = z.strictObject({ tipo: z.enum(['invitacion', 'recuperacion']), token });

/** The real-estate agency the broker chose: a label of the list, or OTRO with its name. */
export const OTHER_AGENCY = 'OTRO';

const registerBody = z.strictObject({
  idCorporativo: z.string().min(1).max(64).optional(),
  slug: z.string().min(1).max(120).optional(),
  nombre: z.string().trim().min(1).max(120),
  apellidos: z.string().trim().min(1).max(120),
  email,
  telefono: z
    .string()
    .trim()
    .min(7)
    .max(40)
    .regex(/^[+\d][\d\s().-]*$/),
  password: z.string().max(PASSWORD_MAX_LENGTH * 4),
  inmobiliaria: z.string().trim().min(1).max(120),
  inmobiliariaOtra: z.string().trim().max(120).optional(),
  idioma: z.enum(['es', 'en']).optional(),
});

const weakPassword = () => new ApiError(400, 'WEAK_PASSWORD', 'weak_password');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The corporate's agency list for the registration form: labels, OTRO always last. */
export function agencyOptions(corporate: Pick<Corporate, 'inmobiliarias'>): string[] {
  const labels = (corporate.inmobiliarias ?? [])
    .map((a) => a.label.trim())
    .filter((l) => l.length > 0 && l.toUpperCase() !== OTHER_AGENCY);
  return [...new Set(labels)].sort((a, b) => a.localeCompare(b, 'es')).concat(OTHER_AGENCY);
}

/** Sets the password from a link of `kind`: uses it up, ends every session of its user. */
async function setPasswordFromLink(
  deps: Env['Variables']['deps'],
  kind: TokenKind,
  body: z.infer<typeof setPasswordBody>,
): Promise<{ user: User; corporate: Corporate | null }> {
  const now = deps.clock();
  // A bad or used link answers before any hashing work.
  await openToken(deps.db, body.token, kind, now);
  if (!isStrongPassword(body.password)) throw weakPassword();
  const passwordHash = await hashPassword(body.password);
  const user = await runCommand(deps, { actorId: null, corporateId: null }, async (scope) => {
    const row = await openToken(scope, body.token, kind, scope.now, { lock: true });
    await scope.lock([streams.user(row.user_id)]);
    const user = await decideUserIn(scope, row.user_id, [
      { type: 'SetPassword', passwordHash, motivo: kind },
      ...(body.idioma
        ? [{ type: 'UpdateUserProfile' as const, changes: { idioma: body.idioma } }]
        : []),
    ]);
    if (!user) throw new ApiError(400, 'TOKEN_INVALID', 'token_invalid');
    await markTokenUsed(scope, row.id, scope.now);
    // Every other link of this kind for the user stops working, and so does every session.
    await revokeTokens(scope, { userId: user.id, kind: 'recuperacion', now: scope.now });
    if (kind === 'invitacion')
      await revokeTokens(scope, { userId: user.id, kind: 'invitacion', now: scope.now });
    await endSessions(scope, user.id, scope.now);
    return { user, corporateId: row.corporate_id };
  });
  const corporate = user.corporateId
    ? await findCorporate(deps.db, { id: user.corporateId })
    : null;
  return { user: user.user, corporate };
}

export const peoplePublicRoutes = new Hono<Env>()
  .post('/auth/recover-password', async (c) => {
    const started = Date.now();
    const deps = c.get('deps');
    const { email: address } = parse(recoverBody, await jsonBody(c));
    const language = lang(c);
    const wait = await runCommand(deps, { actorId: null, corporateId: null }, async (scope) => {
      const retry = await takePeopleAttempt(
        scope,
        'recovery',
        clientAddress(c),
        address,
        scope.now,
      );
      if (retry > 0) return retry;
      const user = await findUserByEmail(scope, address);
      // Only an account that may sign in gets a link; the answer is the same either way.
      if (user && maySignIn(user)) {
        const link = await issueToken(scope, {
          kind: 'recuperacion',
          userId: user.id,
          corporateId: null,
          email: user.email,
          createdBy: null,
          now: scope.now,
        });
        await enqueueMail(scope, {
          template: 'recuperacion',
          to: user.email,
          lang: mailLang(user, language),
          params: {
            nombre: user.nombre,
            minutos: String(Math.round(TOKEN_TTL_MS.recuperacion / 60_000)),
          },
          link: { path: '/recuperar', tokenId: link.id },
        });
      }
      return 0;
    });
    const elapsed = Date.now() - started;
    if (elapsed < RECOVERY_FLOOR_MS) await sleep(RECOVERY_FLOOR_MS - elapsed);
    if (wait > 0) throw rateLimited(c, wait);
    return c.json({ ok: true });
  })
  .get('/auth/enlace', async (c) => {
    const q = parse(linkQuery, c.req.query());
    const deps = c.get('deps');
    const row = await openToken(deps.db, q.token, q.tipo, deps.clock());
    const user = await findUser(deps.db, row.user_id);
    if (!user) throw new ApiError(400, 'TOKEN_INVALID', 'token_invalid');
    const corporate = row.corporate_id
      ? await findCorporate(deps.db, { id: row.corporate_id })
      : null;
    return c.json({
      email: user.email,
      nombre: user.nombre,
      corporativo: corporate ? { nombre: corporate.nombre, slug: corporate.slug } : null,
      vence: new Date(row.expires_at).toISOString(),
    });
  })
  .post('/auth/restablecer-contrasena', async (c) => {
    const body = parse(setPasswordBody, await jsonBody(c));
    const { user } = await setPasswordFromLink(c.get('deps'), 'recuperacion', body);
    return c.json({ ok: true, email: user.email });
  })
  .post('/auth/aceptar-invitacion', async (c) => {
    const body = parse(setPasswordBody, await jsonBody(c));
    const { user, corporate } = await setPasswordFromLink(c.get('deps'), 'invitacion', body);
    return c.json({
      ok: true,
      email: user.email,
      corporativo: corporate ? { nombre: corporate.nombre, slug: corporate.slug } : null,
    });
  })
  /** The registration page's corporate: its name, logo, languages and agency list (404 unknown). */
  .get('/public/registro/:slug', async (c) => {
    const corporate = await findCorporate(c.get('deps').db, { slug: c.req.param('slug') });
    if (!corporate) throw new ApiError(404, 'CORPORATE_NOT_FOUND', 'corporate_not_found');
    return c.json({
      id: corporate.id,
      slug: corporate.slug,
      nombre: corporate.nombre,
      multiIdioma: corporate.multiIdioma,
      imagen: corporate.imagen,
      inmobiliarias: agencyOptions(corporate),
    });
  })
  /**
   * `POST /api/solicitudes-usuarios/registrar` → 201 `{ ok, estatus: 'pendiente' }`. 404 for an
   * unknown corporate, 400 for a weak password or an agency not on the list, 409 for an e-mail
   * with an account, 429 past the limits.
   */
  .post('/solicitudes-usuarios/registrar', async (c) => {
    const deps = c.get('deps');
    const body = parse(registerBody, await jsonBody(c));
    const corporate = body.idCorporativo
      ? await findCorporate(deps.db, { id: body.idCorporativo })
      : body.slug
        ? await findCorporate(deps.db, { slug: body.slug })
        : null;
    if (!corporate) throw new ApiError(404, 'CORPORATE_NOT_FOUND', 'corporate_not_found');
    const agencies = agencyOptions(corporate);
    const chosen = agencies.find((a) => a.toLowerCase() === body.inmobiliaria.toLowerCase());
    const other = body.inmobiliariaOtra?.trim() ?? '';
    if (!chosen || (chosen === OTHER_AGENCY && other === ''))
      throw new ApiError(400, 'AGENCY_REQUIRED', 'agency_required');
    if (!isStrongPassword(body.password)) throw weakPassword();
    const wait = await deps.db.transaction((tx) =>
      takePeopleAttempt(tx, 'registration', clientAddress(c), body.email, deps.clock()),
    );
    if (wait > 0) throw rateLimited(c, wait);
    const idioma = body.idioma ?? (corporate.multiIdioma ? lang(c) : 'es');
    const user = await registerBroker(
      deps,
      corporate,
      {
        email: body.email,
        nombre: body.nombre,
        apellidos: body.apellidos,
        telefono: body.telefono,
        inmobiliaria: chosen === OTHER_AGENCY ? other : chosen,
        idioma,
      },
      await hashPassword(body.password),
    );
    return c.json({ ok: true, id: user.id, estatus: 'pendiente' }, 201);
  });
