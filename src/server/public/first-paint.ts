/**
 * The first frame of a development's public page, painted from the HTML (issue 19: a buyer on a
 * slow phone). Served the bare shell, the visitor sees the Vitrina mark until the page's script
 * has downloaded, run, fetched the development and rendered: seconds on a slow phone. The
 * server knows the development from the URL, so the shell it sends carries the page's top bar
 * as the page will draw it — the corporate's logo and name and the page's heading, in the
 * corporate's colours and the visitor's likely language — and the document's title. The app
 * replaces it when it renders (index.html hides `#first-paint` once `#root` has content), in
 * the same place and at the same size (tests/e2e/public-first-paint.spec.ts), so nothing moves.
 *
 * Decorative until then (`aria-hidden`: the app's own header is the one a screen reader
 * reads). Only a published development that stays on Vitrina gets one: a missing or
 * unpublished development, or one that sends visitors to its landing page, keeps the mark.
 */
import { landingRedirect } from '../../core/development-settings';
import { themeVariables } from '../../core/theme-colors';
import {
  LANGUAGE_COOKIE,
  visitorLanguage,
  type VisitorLanguage,
} from '../../core/visitor-language';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { cachedCorporate, type AppDeps, type Env } from '../http/context';
import { escapeHtml } from '../http/html';
import { acceptedLanguages, publicPageAt, type DevelopmentPage } from '../http/page-preloads';
import { loadDevelopmentBySlug } from '../catalogue/queries';

/**
 * The headings of those pages, as the client's texts write them (src/ui/i18n/locales:
 * inventory `public.title`, quotes `simulator.title`; tests/unit/server/first-paint.test.ts
 * holds them equal).
 */
export const FIRST_PAINT_TITLES: Record<VisitorLanguage, Record<DevelopmentPage, string>> = {
  es: {
    disponibilidad: 'Disponibilidad de {{name}}',
    'disponibilidad-simple': 'Disponibilidad de {{name}}',
    cotizacion: 'Simulador de cotización · {{name}}',
  },
  en: {
    disponibilidad: '{{name}} availability',
    'disponibilidad-simple': '{{name}} availability',
    cotizacion: 'Quote simulator · {{name}}',
  },
};

export interface FirstPaint {
  lang: VisitorLanguage;
  /** The document's title (as the page sets it: heading – corporate – Vitrina). */
  title: string;
  /** `#first-paint`: the top bar, to go right after `#root`. */
  html: string;
}

/** The first paint of `page` for this development (null: none; see above). */
export async function publicFirstPaint(
  deps: AppDeps,
  target: { corporate: string; development: string; page: DevelopmentPage },
  visitor: { requested: string | null; stored?: string | null; preferred: readonly string[] },
): Promise<FirstPaint | null> {
  const corporate = await cachedCorporate(deps, { slug: target.corporate });
  if (!corporate) return null;
  const development = await loadDevelopmentBySlug(deps.db, corporate.id, target.development);
  if (!development || !development.enWeb || landingRedirect(development) !== null) return null;
  const lang = visitorLanguage({
    multiIdioma: corporate.multiIdioma === true,
    requested: visitor.requested,
    stored: visitor.stored ?? null,
    preferred: visitor.preferred,
  });
  const heading = FIRST_PAINT_TITLES[lang][target.page].replace('{{name}}', development.nombre);
  const style = Object.entries(themeVariables(corporate.colores))
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
  const logo = corporate.imagen?.imagenLogo;
  const img = logo
    ? `<img src="/api/media/${escapeHtml(encodeURIComponent(logo))}" alt="" width="40" height="40">`
    : '';
  return {
    lang,
    title: [heading, corporate.nombre, 'Vitrina'].filter((p) => p.trim() !== '').join(' – '),
    html:
      `<div id="first-paint" aria-hidden="true"${style ? ` style="${escapeHtml(style)}"` : ''}>` +
      `<header>${img}<div><p>${escapeHtml(corporate.nombre)}</p>` +
      `<h1>${escapeHtml(heading)}</h1></div></header><div class="loading"></div></div>`,
  };
}

const ENTRY_SCRIPT = /<script type="module" crossorigin src="(\/assets\/[\w.-]+\.js)"><\/script>/;
/** The chunks the entry imports, which Vite preloads from the head (React DOM's among them). */
const ENTRY_IMPORTS = /\s*<link rel="modulepreload" crossorigin href="\/assets\/[\w.-]+\.js">/g;

/**
 * The shell `html` with the first paint (after `#root`), the title replaced and `lang` set. What
 * the app needs — its entry script, the chunks the entry imports and the page's `preloads`
 * (page-preloads.ts) — waits in a
 * `<template>` that public/paint-then-start.js puts in the head once the paint is on screen, and
 * the entry starts then: the first frame costs the HTML, the stylesheet and the logo only, and
 * the app's script (the page's longest task) runs after it rather than before. The shell is
 * returned unchanged (null) when it is not the built one expected.
 */
export function withFirstPaint(
  html: string,
  paint: FirstPaint | null,
  preloads: string,
): string | null {
  if (!paint) return null;
  const root = '<div id="root"></div>';
  const entry = ENTRY_SCRIPT.exec(html);
  if (!html.includes(root) || !entry) return null;
  const imports = (html.match(ENTRY_IMPORTS) ?? []).map((link) => link.trim()).join('');
  return html
    .replace(ENTRY_IMPORTS, '')
    .replace(
      entry[0],
      `<template id="after-paint"><link rel="modulepreload" crossorigin href="${entry[1]}" data-entry>${imports}${preloads}</template>` +
        '<script type="module" src="/paint-then-start.js"></script>',
    )
    .replace(root, `${root}${paint.html}`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(paint.title)}</title>`)
    .replace(/<html lang="[a-z-]*"/, `<html lang="${paint.lang}"`);
}

/** A slug as the catalogue writes them: other paths get no paint (and no store read). */
const SLUG = /^[a-z0-9-]{1,120}$/;

/**
 * The app shell for this request with its first paint when it is a development's public page
 * (http/static.ts `pageShell`; `preloads`: the page's preload links), else null. A page the store
 * cannot answer for now keeps the bare shell: the app shows what went wrong once it runs.
 */
export async function publicPageShell(
  c: Context<Env>,
  html: string,
  preloads: string,
): Promise<string | null> {
  const page = publicPageAt(c.req.path);
  if (page?.kind !== 'development' || !SLUG.test(page.corporate) || !SLUG.test(page.development))
    return null;
  const url = new URL(c.req.url);
  try {
    const paint = await publicFirstPaint(
      c.get('deps'),
      { corporate: page.corporate, development: page.development, page: page.page },
      {
        requested: url.searchParams.get('lang'),
        stored: getCookie(c, LANGUAGE_COOKIE) ?? null,
        preferred: acceptedLanguages(c.req.header('accept-language')),
      },
    );
    return withFirstPaint(html, paint, preloads);
  } catch {
    return null;
  }
}
