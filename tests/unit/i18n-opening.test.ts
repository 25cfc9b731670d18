/**
 * A public page opens with its own texts (issue 19's load budget): `initI18n` fetches them in the
 * visitor's likely language before i18next starts and hands them to it, so the page's first
 * render has them. Before, the fetch ran before `init`, when i18next's store methods do not exist
 * yet: it threw a TypeError on every public page (swallowed, so the texts came only when a
 * component asked for them; with DevTools attached, as in Lighthouse, the throw's stack trace cost
 * ~150 ms in the main script's task).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const AVAILABILITY = '/public/corporativos/c/desarrollos/d/disponibilidad';

async function freshI18n() {
  vi.resetModules();
  return import('../../src/ui/i18n');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a public page opening', { timeout: 90_000 }, () => {
  it('has its texts in Spanish when init resolves', async () => {
    vi.stubGlobal('document', { documentElement: { lang: 'es' } });
    vi.stubGlobal('navigator', { languages: ['es-MX'] });
    const { initI18n, default: i18n } = await freshI18n();
    await initI18n({ pathname: AVAILABILITY, search: '' });
    expect(i18n.language).toBe('es');
    expect(i18n.hasResourceBundle('es', 'inventory')).toBe(true);
    expect(i18n.t('inventory:grid.levels', { count: 2 })).not.toContain('grid.levels');
    // Only the page's own namespace: no other feature's texts, no English.
    expect(i18n.hasResourceBundle('es', 'quotes')).toBe(false);
    expect(i18n.hasResourceBundle('en', 'inventory')).toBe(false);
  });

  it('opens in English for an English browser, with the shell and the page in English', async () => {
    vi.stubGlobal('document', { documentElement: { lang: 'es' } });
    vi.stubGlobal('navigator', { languages: ['en-US', 'es-MX'] });
    const { initI18n, default: i18n } = await freshI18n();
    await initI18n({ pathname: '/public/cotizacion/k1.x', search: '' });
    expect(i18n.language).toBe('en');
    for (const ns of ['common', 'errors', 'shell', 'quotes'])
      expect(i18n.hasResourceBundle('en', ns), ns).toBe(true);
    expect(i18n.hasResourceBundle('en', 'inventory')).toBe(false);
    expect(i18n.t('shell:login.submit')).toBe('Sign in');
  });

  it("follows the share link's language over the browser's", async () => {
    vi.stubGlobal('document', { documentElement: { lang: 'es' } });
    vi.stubGlobal('navigator', { languages: ['en-US'] });
    const { initI18n, default: i18n } = await freshI18n();
    await initI18n({ pathname: '/public/cotizacion/k1.x', search: '?lang=es' });
    expect(i18n.language).toBe('es');
    expect(i18n.hasResourceBundle('es', 'quotes')).toBe(true);
  });
});
