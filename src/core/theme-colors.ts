/**
 * Corporate colours as CSS variables (spec §3 colour settings): each colour setting becomes
 * `--vt-<setting>`, which the Panda semantic tokens (`bg`, `topbar`, `text`, `link`, …) read.
 * Shared by the client's theme (ui/theme/corporate-theme.ts) and the server's first paint of a
 * public page (server/public/first-paint.ts), so both paint the same colours.
 */

import type { ColorSettings } from './types';

const COLOR_KEYS: readonly (keyof ColorSettings)[] = [
  'colorFondoPrincipal',
  'colorFondoBarraLateral',
  'colorTextoBarraLateral',
  'colorFondoBarraSuperior',
  'colorFondoModal',
  'colorBotonPrimario',
  'colorTextoBotonPrimario',
  'colorTextoPrimario',
  'colorResaltado',
  'colorEnlace',
];

/** Only plain colour values reach a stylesheet: hex, rgb()/rgba() or hsl()/hsla(). */
const SAFE_COLOR = /^(#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla)\(\s*[\d.%\s,/]+\))$/i;

export function isSafeColor(value: unknown): value is string {
  return typeof value === 'string' && SAFE_COLOR.test(value.trim());
}

/** The `--vt-*` variables of a corporate's colours (a setting that is not a plain colour is left out). */
export function themeVariables(colores: ColorSettings | null | undefined): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const key of COLOR_KEYS) {
    const value = colores?.[key];
    if (isSafeColor(value)) vars[`--vt-${key}`] = value.trim();
  }
  return vars;
}
