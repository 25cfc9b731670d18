/**
 * How the interface's texts load (issue 19's load budget): feature namespaces and a second
 * language arrive in one batch (one `added` event, so the screens re-render once, not once per
 * namespace), a public page's texts are fetched in its visitor's likely language only, without
 * switching to it, a switch fetches what the screens have so far, and a switch to a language
 * already fetched happens synchronously (before the first paint: no layout shift).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import i18n, {
  FEATURE_NAMESPACES,
  initI18n,
  NAMESPACES,
  prefetchVisitorLanguage,
  preloadFeatureNamespaces,
  setLanguage,
} from '../../src/ui/i18n';

// The chunks are JSON modules, transformed on first import: slow on a busy machine.
const WAIT = { timeout: 60_000 };
let added = 0;
const countAdded = () => added++;

beforeAll(async () => {
  vi.stubGlobal('document', { documentElement: { lang: 'es' } });
  vi.stubGlobal('navigator', { languages: ['en-US', 'es-MX'] });
  await initI18n();
  i18n.store.on('added', countAdded);
});

afterAll(() => {
  i18n.store.off('added', countAdded);
  vi.unstubAllGlobals();
});

describe('loading the interface texts', { timeout: 90_000 }, () => {
  it("fetches a public page visitor's language without switching to it: the page's texts only", async () => {
    const availability = '/public/corporativos/c/desarrollos/d/disponibilidad';
    await expect(prefetchVisitorLanguage(availability, '')).resolves.toBe('en');
    for (const ns of ['common', 'errors', 'shell', 'inventory'])
      expect(i18n.hasResourceBundle('en', ns), ns).toBe(true);
    for (const ns of ['quotes', 'leads', 'people'])
      expect(i18n.hasResourceBundle('en', ns), ns).toBe(false);
    expect(i18n.language).toBe('es');
    expect(added).toBe(1);
    // The share link's language wins; not a public page: nothing fetched.
    await expect(prefetchVisitorLanguage('/public/cotizacion/k1.x', '?lang=es')).resolves.toBe(
      'es',
    );
    await expect(prefetchVisitorLanguage('/corporativos/c', '')).resolves.toBeNull();
  });

  it(
    'adds every feature namespace at once: one `added` event',
    async () => {
      expect(FEATURE_NAMESPACES.length).toBeGreaterThan(1);
      added = 0;
      // What the root route's loader awaits: once it settles, every namespace is in.
      await preloadFeatureNamespaces();
      for (const ns of FEATURE_NAMESPACES) expect(i18n.hasResourceBundle('es', ns), ns).toBe(true);
      expect(added).toBe(1);
    },
    WAIT.timeout,
  );

  it('switching fetches what the current language has first', async () => {
    // Spanish has every feature namespace (above), English only the public page's so far.
    const switching = setLanguage('en', { remember: false });
    expect(i18n.language).toBe('es');
    await switching;
    expect(i18n.language).toBe('en');
    for (const ns of NAMESPACES) expect(i18n.hasResourceBundle('en', ns), ns).toBe(true);
    await setLanguage('es', { remember: false });
  });

  it('switches to a fetched language in the same call', async () => {
    const switching = setLanguage('en', { remember: false });
    expect(i18n.language).toBe('en');
    await switching;
    expect(i18n.t('shell:login.submit')).toBe('Sign in');
  });
});
