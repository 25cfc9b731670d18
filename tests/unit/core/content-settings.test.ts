import { describe, expect, it } from 'vitest';
import {
  campaignFor,
  DEVELOPMENT_PAGES,
  landingRedirect,
  menuPages,
  messageTemplateFor,
  normalizeDevelopmentSettings,
  showsFacadeColour,
} from '../../../src/core/development-settings';
import { featuredInOrder, normalizeFeatured } from '../../../src/core/featured';
import { activeTutorials, tutorialProblems, type Tutorial } from '../../../src/core/tutorials';

describe('development settings (spec §3 Development)', () => {
  it('configVistaNivel.mostrarColorIndependienteFachada is true when absent', () => {
    expect(showsFacadeColour({})).toBe(true);
    expect(showsFacadeColour({ configVistaNivel: {} })).toBe(true);
    expect(
      showsFacadeColour({ configVistaNivel: { mostrarColorIndependienteFachada: false } }),
    ).toBe(false);
  });

  it('menu: the sub-pages shown in its order; every page when absent or empty', () => {
    expect(menuPages({})).toEqual([...DEVELOPMENT_PAGES]);
    expect(menuPages({ menu: [] })).toEqual([...DEVELOPMENT_PAGES]);
    expect(menuPages({ menu: ['cotizacion', 'presentacion'] })).toEqual([
      'cotizacion',
      'presentacion',
    ]);
  });

  it('reedireccionarLandingPage / landingPage: the landing only when redirection is on and the address is https', () => {
    expect(landingRedirect({ landingPage: 'https://x.example.com' })).toBeNull();
    expect(
      landingRedirect({ reedireccionarLandingPage: true, landingPage: 'https://x.example.com' }),
    ).toBe('https://x.example.com');
    expect(
      landingRedirect({ reedireccionarLandingPage: true, landingPage: 'javascript:alert(1)' }),
    ).toBeNull();
    const bad = normalizeDevelopmentSettings({ landingPage: 'http://x.example.com' }, 'd1');
    expect(bad).toEqual({ ok: false, campos: ['landingPage'] });
  });

  it('campanias: the medio names a campaign without case or accents', () => {
    const d = { campanias: ['Campaña Primavera', 'Facebook Ads'] };
    expect(campaignFor(d, 'campana primavera')).toBe('Campaña Primavera');
    expect(campaignFor(d, 'Radio')).toBeNull();
    expect(campaignFor({}, 'Facebook Ads')).toBeNull();
  });

  it('message template (prospecto, developmentId): the development’s own, else the corporate’s', () => {
    expect(
      messageTemplateFor(
        { plantillaMensaje: { prospecto: 'Hola {nombre}', developmentId: 'd1' } },
        'Corp',
      ),
    ).toBe('Hola {nombre}');
    expect(
      messageTemplateFor({ plantillaMensaje: { prospecto: ' ', developmentId: 'd1' } }, 'Corp'),
    ).toBe('Corp');
    expect(messageTemplateFor(null, null)).toBeNull();
    const ok = normalizeDevelopmentSettings(
      { plantillaMensaje: { prospecto: ' Hola ', developmentId: 'x' } },
      'd1',
    );
    expect(ok).toEqual({
      ok: true,
      settings: { plantillaMensaje: { prospecto: 'Hola', developmentId: 'd1' } },
    });
  });
});

describe('featured developments (items) and tutorials (activo)', () => {
  it('items: each id once in order; unknown ids refused; shown in the document’s order', () => {
    const ids = new Set(['a', 'b', 'c']);
    expect(normalizeFeatured(['c', 'a', 'c'], ids)).toEqual({
      ok: true,
      featured: { items: ['c', 'a'] },
    });
    expect(normalizeFeatured(['z'], ids)).toEqual({
      ok: false,
      error: { code: 'FEATURED_UNKNOWN_DEVELOPMENT', ids: ['z'] },
    });
    const devs = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    expect(featuredInOrder({ items: ['c', 'gone', 'a'] }, devs).map((d) => d.id)).toEqual([
      'c',
      'a',
    ]);
    expect(featuredInOrder(undefined, devs)).toEqual([]);
  });

  it('tutorials: only the activo ones, by orden; a title and steps in both languages', () => {
    const t = (id: string, orden: number, activo: boolean): Tutorial => ({
      id,
      orden,
      activo,
      es: { titulo: id, pasos: ['uno'] },
      en: { titulo: id, pasos: ['one'] },
    });
    expect(
      activeTutorials([t('b', 2, true), t('x', 1, false), t('a', 1, true)]).map((x) => x.id),
    ).toEqual(['a', 'b']);
    expect(
      tutorialProblems({ es: { titulo: ' ', pasos: ['x'] }, en: { titulo: 'T', pasos: [' '] } }),
    ).toEqual(['es.titulo', 'en.pasos']);
  });
});
