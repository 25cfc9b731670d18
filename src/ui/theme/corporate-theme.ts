/**
 * Corporate colours at run time (spec §3 colour settings): each colour setting becomes a CSS
 * variable `--vt-<setting>` on the corporate layout's root element, and the Panda semantic
 * tokens of panda.config.ts (`bg`, `sidebar`, `topbar`, `modal`, `primary`, `text`, `highlight`,
 * `link`, …) read those variables. A corporate re-themes the app without a rebuild.
 */

import type { CSSProperties } from 'react';
import type { ColorSettings } from '../../core/types';

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

/** Only plain colour values reach the stylesheet: hex, rgb()/rgba() or hsl()/hsla(). */
const SAFE_COLOR = /^(#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla)\(\s*[\d.%\s,/]+\))$/i;

export function isSafeColor(value: unknown): value is string {
  return typeof value === 'string' && SAFE_COLOR.test(value.trim());
}

/** The style that applies a corporate's colours to everything inside the element. */
export function corporateThemeStyle(colores: ColorSettings | null | undefined): CSSProperties {
  const style: Record<string, string> = {};
  for (const key of COLOR_KEYS) {
    const value = colores?.[key];
    if (isSafeColor(value)) style[`--vt-${key}`] = value.trim();
  }
  return style;
}
