import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { appointmentRoutes } from './appointments/routes';
import { authRoutes } from './auth/routes';
import { firebaseAuthRoutes } from './auth/firebase.routes';
import { catalogueRoutes } from './catalogue/routes';
import { contentRoutes } from './content/routes';
import { chatRoutes } from './chat/routes';
import { crmRoutes } from './crm/routes';
import { checkInRoutes } from './check-ins/routes';
import { documentRoutes } from './catalogue/documents.routes';
import { uploadRoutes } from './catalogue/uploads';
import { userRoutes } from './users/routes';
import { peopleRoutes } from './users/people.routes';
import { peoplePublicRoutes } from './auth/people.routes';
import { inventoryRoutes } from './inventory/routes';
import { labelRoutes } from './labels/routes';
import { leadRoutes } from './leads/routes';
import { adviserRoutes } from './users/advisers.routes';
import { liveRoutes } from './live/routes';
import { notificationRoutes } from './notifications/routes';
import { healthRoutes } from './ops/health.routes';
import { operationsRoutes } from './ops/routes';
import { publicRoutes } from './public/routes';
import { quotationRoutes } from './quotations/routes';
import { quotationPublicRoutes } from './quotations/public-routes';
import { SESSION_COOKIE } from './auth/sessions';
import { ApiError, errorResponse, handleError } from './http/errors';
import { compressResponses } from './http/compression';
import { RequestGauge } from './http/in-flight';
import { bodyLimit, csrfGuard, inputGuard, securityHeaders } from './http/security';
import type { AppDeps, Env } from './http/context';

/** The API under /api; the static client is mounted by main.ts. */
export function createApp(deps: AppDeps) {
  const app = new Hono<Env>();
  const requests = deps.requests ?? new RequestGauge();
  // Every response's headers may depend on the deployment (HSTS behind a trusted TLS proxy).
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    c.set('requests', requests);
    await requests.during(next);
  });
  app.use('*', securityHeaders);
  // Brotli (preferred) or gzip for JSON and the app shell (http/compression.ts); never the live
  // stream (text/event-stream), whose events must not wait in a compressor's buffer, nor images.
  // The client's scripts and styles go out pre-compressed at build (main.ts, vite.config.ts).
  app.use('*', compressResponses());
  app.use('/api/*', bodyLimit, csrfGuard, inputGuard, async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE);
    c.set('sessionToken', token);
    // Memory answers only once other processes' changes heard so far are in (auth-cache.ts).
    const behind = deps.authCache ? deps.live.caughtUp() : undefined;
    if (behind) await behind;
    // Several processes share PostgreSQL: a read of the authentication revision that started
    // after this request arrived makes another process's committed change count now, even if its
    // notification is still on the way. Shared by the requests arriving meanwhile; it carries the
    // catalogue revisions the catalogue reads need (auth/revisions.ts).
    if (deps.authCache && deps.db.kind === 'postgres')
      c.set('revisions', await deps.authCache.checkRevision(deps.db));
    c.set('userId', await deps.sessions.resolve(token));
    await next();
    if (c.get('headersComplete')) return;
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  });
  const api = new Hono<Env>();
  api.route('/auth', authRoutes);
  api.route('/auth', firebaseAuthRoutes);
  api.route('/', userRoutes);
  api.route('/', peopleRoutes);
  api.route('/', peoplePublicRoutes);
  api.route('/', catalogueRoutes);
  api.route('/', contentRoutes);
  api.route('/', documentRoutes);
  api.route('/', uploadRoutes);
  api.route('/', inventoryRoutes);
  api.route('/', leadRoutes);
  api.route('/', adviserRoutes);
  api.route('/', liveRoutes);
  api.route('/', healthRoutes);
  api.route('/', operationsRoutes);
  api.route('/', quotationRoutes);
  api.route('/', checkInRoutes);
  api.route('/', appointmentRoutes);
  api.route('/', notificationRoutes);
  api.route('/', chatRoutes);
  api.route('/', labelRoutes);
  api.route('/', crmRoutes);
  api.route('/public', publicRoutes);
  api.route('/public', quotationPublicRoutes);
  api.all('*', (c) => errorResponse(c, new ApiError(404, 'NOT_FOUND', 'route_not_found')));
  app.route('/api', api);
  app.onError(handleError);
  return app;
}
