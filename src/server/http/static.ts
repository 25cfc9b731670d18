import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { LANGUAGE_COOKIE } from '../../core/visitor-language';
import type { Env } from './context';
import { preloadLinks, readManifest, withPreloads, type Manifest } from './page-preloads';
import { signedInPreloads } from './signed-in-preloads';

/**
 * A member's preloads; none when they cannot be worked out (the store unreachable): they only
 * speed the page up, which then asks for the same itself and shows that error its own way.
 */
async function memberPreloads(c: Context<Env>, manifest: Manifest): Promise<string> {
  try {
    return await signedInPreloads(c, manifest, c.req.path);
  } catch (error) {
    console.error('signed-in preloads left out:', error);
    return '';
  }
}

/**
 * Serves the built client from `distDir` (main.ts): the hashed assets for a year, the service
 * worker and the manifest revalidated on every load, the sign-in page for /login, and the app
 * shell for every other GET that is not the API. Scripts, styles and the other text files were
 * written with a `.br` and a `.gz` beside them at build (vite.config.ts, `precompress`): a
 * client that accepts brotli gets the `.br`, else one that accepts gzip the `.gz`, with
 * `Content-Encoding` and `Vary: Accept-Encoding`; nothing is compressed per request. Returns
 * false when there is no build. `pageShell` may answer a page's shell with its first paint and
 * the page's preloads placed as it needs (main.ts: public/first-paint.ts), or null for the bare
 * shell with the preloads in its head.
 */
export function mountClient(
  app: Hono<Env>,
  distDir: string,
  pageShell?: (c: Context<Env>, html: string, preloads: string) => Promise<string | null>,
): boolean {
  if (!existsSync(join(distDir, 'index.html'))) return false;
  const indexHtml = readFileSync(join(distDir, 'index.html'), 'utf8');
  const manifest = readManifest(distDir);
  // The sign-in page is a page of its own (login.html, a light entry: issue 21).
  const loginFile = join(distDir, 'login.html');
  const loginHtml = existsSync(loginFile) ? readFileSync(loginFile, 'utf8') : indexHtml;
  // The cache header is set once the file is found (serveStatic's onFound sets it on the context
  // after the answer is made, where it was lost).
  const cached =
    (value: string): MiddlewareHandler<Env> =>
    async (c, next) => {
      await next();
      if (c.res.status === 200 || c.res.status === 206) c.res.headers.set('Cache-Control', value);
    };
  app.use('/assets/*', cached('public, max-age=31536000, immutable'));
  // The service worker and the manifest are revalidated on every load, so a deployment is seen
  // at once (the worker, at the root, controls the root: no Service-Worker-Allowed needed).
  app.use('/sw.js', cached('no-cache'));
  app.use('/manifest.webmanifest', cached('no-cache'));
  app.use('/paint-then-start.js', cached('no-cache'));
  app.use('*', serveStatic({ root: distDir, precompressed: true }));
  // Client routes: /login gets the sign-in page, every other GET that is not the API the app
  // shell (both compressed per request by http/compression.ts, like JSON).
  app.get('/login', (c) => c.html(loginHtml));
  // A public page's shell names what the page will fetch first, so the browser fetches it
  // beside the main script (page-preloads.ts).
  app.get('*', async (c) => {
    if (c.req.path.startsWith('/api/')) return c.notFound();
    const links = manifest
      ? preloadLinks(
          manifest,
          new URL(c.req.url),
          c.req.header('accept-language'),
          getCookie(c, LANGUAGE_COOKIE),
        )
      : '';
    // A member's page names its first reads too, for that member only (signed-in-preloads.ts).
    const own = manifest && links === '' ? await memberPreloads(c, manifest) : '';
    if (own !== '') {
      c.header('Vary', 'Cookie', { append: true });
      c.header('Cache-Control', 'private, no-cache');
      return c.html(withPreloads(indexHtml, own));
    }
    const painted = pageShell ? await pageShell(c, indexHtml, links) : null;
    // The texts preloaded and the first paint follow the visitor's languages (and the choice
    // remembered in their cookie), and the first paint the development as it is now: a shared
    // cache keeps one per language, revalidated.
    if (painted !== null || links.length > 0) {
      c.header('Vary', 'Accept-Language, Cookie', { append: true });
      c.header('Cache-Control', 'no-cache');
    }
    return c.html(painted ?? withPreloads(indexHtml, links));
  });
  return true;
}
