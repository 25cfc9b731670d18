/**
 * A development's settings the spec names (§3 Development: `menu`, `reedireccionarLandingPage`,
 * `landingPage`, `campanias`, `caracteristicasUnidad`, `subcategorias`, `proyecto`,
 * `configVistaNivel.mostrarColorIndependienteFachada`; message template `prospecto`,
 * `developmentId`), edited by the corporate's administrator and stored as
 * `DevelopmentSettingsChanged` events on the development's stream.
 */

import type { Development } from './types';

/** The development's sub-pages (spec §2 segments), in the default order of its navigation. */
export const DEVELOPMENT_PAGES = [
  'presentacion',
  'disponibilidad',
  'disponibilidad-simple',
  'prototipos',
  'departamentos',
  'galerias',
  'galerias-videos',
  'ubicacion',
  'documentos',
  'amenidades',
  'material-visual',
  'comparador',
  'cotizacion',
  'registro-clientes',
] as const;
export type DevelopmentPage = (typeof DEVELOPMENT_PAGES)[number];

/** The message template of a development (spec §3 "message template (prospecto, developmentId)"). */
export interface DevelopmentMessageTemplate {
  prospecto: string;
  developmentId: string;
}

/** What an administrator sets; every field optional (absent: unchanged). */
export interface DevelopmentSettings {
  menu?: DevelopmentPage[];
  reedireccionarLandingPage?: boolean;
  landingPage?: string;
  campanias?: string[];
  caracteristicasUnidad?: string[];
  subcategorias?: string[];
  proyecto?: string;
  configVistaNivel?: { mostrarColorIndependienteFachada: boolean };
  plantillaMensaje?: DevelopmentMessageTemplate;
}

export const SETTINGS_TEXT_MAX = 200;
export const SETTINGS_LIST_MAX = 50;
export const TEMPLATE_MAX = 1000;

const isPage = (p: string): p is DevelopmentPage =>
  (DEVELOPMENT_PAGES as readonly string[]).includes(p);

/** An https address (the landing page a visitor is sent to). */
export function isLandingUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.hostname.includes('.');
  } catch {
    return false;
  }
}

/**
 * The settings as stored (trimmed, blank list entries and repeats dropped, the template's
 * `developmentId` the development's own) or the fields that are not valid.
 */
export function normalizeDevelopmentSettings(
  input: DevelopmentSettings,
  developmentId: string,
): { ok: true; settings: DevelopmentSettings } | { ok: false; campos: string[] } {
  const campos: string[] = [];
  const out: DevelopmentSettings = {};
  const list = (name: keyof DevelopmentSettings, values: string[] | undefined) => {
    if (values === undefined) return undefined;
    const clean = [...new Set(values.map((v) => v.trim()).filter((v) => v !== ''))];
    if (clean.length > SETTINGS_LIST_MAX || clean.some((v) => v.length > SETTINGS_TEXT_MAX))
      campos.push(name);
    return clean;
  };
  if (input.menu !== undefined) {
    const menu = [...new Set(input.menu)];
    if (menu.length === 0 || !menu.every(isPage)) campos.push('menu');
    out.menu = menu;
  }
  if (input.reedireccionarLandingPage !== undefined)
    out.reedireccionarLandingPage = input.reedireccionarLandingPage;
  if (input.landingPage !== undefined) {
    const url = input.landingPage.trim();
    if (url !== '' && !isLandingUrl(url)) campos.push('landingPage');
    out.landingPage = url;
  }
  const redirect = out.reedireccionarLandingPage === true;
  if (redirect && !out.landingPage) campos.push('landingPage');
  const campanias = list('campanias', input.campanias);
  if (campanias) out.campanias = campanias;
  const caracteristicas = list('caracteristicasUnidad', input.caracteristicasUnidad);
  if (caracteristicas) out.caracteristicasUnidad = caracteristicas;
  const subcategorias = list('subcategorias', input.subcategorias);
  if (subcategorias) out.subcategorias = subcategorias;
  if (input.proyecto !== undefined) {
    out.proyecto = input.proyecto.trim();
    if (out.proyecto.length > SETTINGS_TEXT_MAX) campos.push('proyecto');
  }
  if (input.configVistaNivel !== undefined) out.configVistaNivel = input.configVistaNivel;
  if (input.plantillaMensaje !== undefined) {
    const prospecto = input.plantillaMensaje.prospecto.trim();
    if (prospecto.length > TEMPLATE_MAX) campos.push('plantillaMensaje');
    out.plantillaMensaje = { prospecto, developmentId };
  }
  return campos.length > 0
    ? { ok: false, campos: [...new Set(campos)] }
    : { ok: true, settings: out };
}

/** The fields of `next` that differ from the development (empty: nothing to record). */
export function changedSettings(
  development: Development,
  next: DevelopmentSettings,
): DevelopmentSettings {
  const current = development as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(next)) {
    if (JSON.stringify(current[key]) !== JSON.stringify(value)) out[key] = value;
  }
  return out;
}

/** The settings as the editor shows them (absent fields at their defaults). */
export function developmentSettingsOf(d: Development): Required<DevelopmentSettings> {
  return {
    menu: menuPages(d),
    reedireccionarLandingPage: d.reedireccionarLandingPage === true,
    landingPage: d.landingPage ?? '',
    campanias: d.campanias ?? [],
    caracteristicasUnidad: d.caracteristicasUnidad ?? [],
    subcategorias: d.subcategorias ?? [],
    proyecto: d.proyecto ?? '',
    configVistaNivel: { mostrarColorIndependienteFachada: showsFacadeColour(d) },
    plantillaMensaje: { prospecto: d.plantillaMensaje?.prospecto ?? '', developmentId: d.id },
  };
}

/** The sub-pages the development shows, in its `menu`'s order; every page when it has none. */
export function menuPages(d: Pick<Development, 'menu'>): DevelopmentPage[] {
  const menu = (d.menu ?? []).filter(isPage);
  return menu.length > 0 ? menu : [...DEVELOPMENT_PAGES];
}

/** Where the public pages send a visitor: the landing page when redirection is on, else null. */
export function landingRedirect(
  d: Pick<Development, 'reedireccionarLandingPage' | 'landingPage'>,
): string | null {
  return d.reedireccionarLandingPage === true && d.landingPage && isLandingUrl(d.landingPage)
    ? d.landingPage
    : null;
}

/** Spec §3: `configVistaNivel.mostrarColorIndependienteFachada`, true when absent. */
export function showsFacadeColour(d: Pick<Development, 'configVistaNivel'>): boolean {
  return d.configVistaNivel?.mostrarColorIndependienteFachada !== false;
}

/**
 * The development's unit features (spec §3 `caracteristicasUnidad`: 'Balcón', 'Cuarto de
 * servicio'…) as a unit's detail lists them: trimmed, blanks and repeats dropped, in the
 * administrator's order; empty when it has none.
 */
export function unitFeaturesOf(d: Pick<Development, 'caracteristicasUnidad'>): string[] {
  return shownList(d.caracteristicasUnidad);
}

/**
 * The development's subcategories (spec §3 `subcategorias`, data only: shown on its
 * presentation), as {@link unitFeaturesOf} lists features.
 */
export function subcategoriesOf(d: Pick<Development, 'subcategorias'>): string[] {
  return shownList(d.subcategorias);
}

function shownList(values: readonly string[] | undefined): string[] {
  return [...new Set((values ?? []).map((v) => v.trim()).filter((v) => v !== ''))];
}

/**
 * The façade's one colour when `mostrarColorIndependienteFachada` is false: a light stone, so the
 * cell's text (ui/theme/contrast.ts `textOn`) stays dark and legible on it.
 */
export const FACADE_COLOUR = '#e6dfd2';

/**
 * The colour of a unit on the building's façade (the availability grid): its own status colour
 * when the development shows independent colours (`mostrarColorIndependienteFachada`, true when
 * absent), else the one façade colour for every unit; the status is then told by the cell's mark,
 * its accessible name and the unit's detail.
 */
export function facadeCellColour(statusColour: string, independentColours: boolean): string {
  return independentColours ? statusColour : FACADE_COLOUR;
}

/**
 * The campaign a lead came from: the development's campaign whose name matches `medio` (the
 * capture URL's medium or the lead's channel), compared without case or accents; null when none.
 */
export function campaignFor(
  d: Pick<Development, 'campanias'>,
  medio: string | null | undefined,
): string | null {
  if (!medio) return null;
  const key = (s: string) =>
    s
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .trim()
      .toLowerCase();
  const wanted = key(medio);
  return (d.campanias ?? []).find((c) => key(c) === wanted) ?? null;
}

/** The lead message template: the development's own when it has one, else the corporate's. */
export function messageTemplateFor(
  d: Pick<Development, 'plantillaMensaje'> | null | undefined,
  corporateTemplate: string | null | undefined,
): string | null {
  const own = d?.plantillaMensaje?.prospecto?.trim();
  return own ? own : (corporateTemplate ?? null);
}
