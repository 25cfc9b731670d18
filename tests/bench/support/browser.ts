/**
 * Signing a bench's Chromium context in, shared by the benches that time the built app's pages.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { DEMO_PASSWORD } from './server';

/** The local-storage flag that builds the rows on the main thread: the benches' baseline. */
export const MAIN_THREAD_FLAG = 'vitrina:filtros-hilo-principal';

/**
 * Signs the context in as `email` and waits until the session reads back: a server just started
 * over a fresh store may still be catching its projections up, and a page opened before that
 * goes to the login.
 */
export async function signIn(
  context: BrowserContext,
  base: string,
  email = 'asesor@vitrina.demo',
): Promise<void> {
  const res = await context.request.post(`${base}/api/auth/login`, {
    data: { email, password: DEMO_PASSWORD },
  });
  if (res.status() !== 200) throw new Error(`login failed: ${res.status()}`);
  for (let i = 0; (await context.request.get(`${base}/api/auth/session`)).status() !== 200; i++) {
    if (i === 120) throw new Error('the session never read back');
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * A 1440×900 context signed in as the demo adviser, whose pages build their rows in the core
 * worker (the product) or, with `mainThread`, on the main thread (the baseline); `storage` is
 * put in local storage before each page's scripts, session storage is cleared.
 */
export async function signedInContext(
  browser: Browser,
  base: string,
  { mainThread, storage = {} }: { mainThread: boolean; storage?: Record<string, string> },
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await signIn(context, base);
  // tsx (esbuild keepNames) wraps functions given to page.evaluate in `__name(…)`.
  await context.addInitScript('window.__name = (f) => f');
  await context.addInitScript(
    ([flag, main, items]) => {
      if (main) localStorage.setItem(flag, '1');
      else localStorage.removeItem(flag);
      for (const [key, value] of Object.entries(items)) localStorage.setItem(key, value);
      sessionStorage.clear();
    },
    [MAIN_THREAD_FLAG, mainThread, storage] as const,
  );
  return context;
}
