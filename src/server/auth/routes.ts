import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { dummyHash, verifyPassword } from '../auth/passwords';
import { SESSION_COOKIE, SESSION_TTL_MS } from '../auth/sessions';
import { ApiError, jsonBody, parse } from '../http/errors';
import { findUser, requireUser, type Env } from '../http/context';
import { isHttps } from '../http/proxy';
import { clientAddress, rateLimited } from '../http/rate-limit';
import { publicUser } from '../users/routes';
import { maySignIn } from '../../core/user';

const loginBody = z.strictObject({
  email: z.string().trim().max(320),
  password: z.string().max(1024),
});

export const authRoutes = new Hono<Env>()
  .post('/login', async (c) => {
    const deps = c.get('deps');
    const { email, password } = parse(loginBody, await jsonBody(c));
    const account = email.toLowerCase();
    const address = clientAddress(c);
    // Counted before the password is checked (throttle.ts): a burst checks only what it allows.
    const turn = await deps.throttle.begin(account, address);
    if (!turn.allowed) throw rateLimited(c, turn.retryAfter);
    const { rows } = await deps.db.query<{ id: string; password_hash: string | null }>(
      'SELECT id, password_hash FROM rm_users WHERE email = $1',
      [account],
    );
    const row = rows[0];
    // Unknown email and wrong password take the same path and time, and answer the same.
    const ok = await verifyPassword(row?.password_hash ?? (await dummyHash()), password);
    if (!row || !row.password_hash || !ok) {
      throw new ApiError(401, 'BAD_CREDENTIALS', 'bad_credentials');
    }
    await deps.throttle.succeeded(account, address);
    // A deactivated account does not sign in, even with the right password (issue 16).
    const user = await findUser(deps.db, row.id);
    if (!user || !maySignIn(user)) throw new ApiError(403, 'USER_INACTIVE', 'user_inactive');
    const session = await deps.sessions.create(row.id);
    setCookie(c, SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'Lax',
      // Over HTTPS, also behind a trusted TLS proxy (X-Forwarded-Proto with TRUST_PROXY).
      secure: isHttps(c),
      path: '/',
      maxAge: Math.floor(SESSION_TTL_MS / 1000),
    });
    return c.json(publicUser(user));
  })
  /**
   * `GET /api/auth/session` → the signed-in user, or 200 `null` to a visitor who sends no
   * session cookie: a signed-out visitor's check is an answer, not an error (before, every public
   * page logged a 401). A cookie that no longer names a live session (signed out elsewhere,
   * expired, the user deactivated) is still 401.
   */
  .get('/session', async (c) => {
    if (getCookie(c, SESSION_COOKIE) === undefined) return c.json(null);
    const user = await requireUser(c);
    return c.json(publicUser(user));
  })
  .post('/logout', async (c) => {
    await c.get('deps').sessions.revoke(getCookie(c, SESSION_COOKIE));
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.json({ ok: true });
  });
