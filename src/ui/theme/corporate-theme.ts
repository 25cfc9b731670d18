/**
 * Corporate colours at run time (spec §3 colour settings): each colour setting becomes a CSS
 * variable `--vt-<setting>` on the corporate layout's root element, and the Panda semantic
 * tokens of panda.config.ts (`bg`, `sidebar`, `topbar`, `modal`, `primary`, `text`, `highlight`,
 * `link`, …) read those variables. A corporate re-themes the app without a rebuild. The rule
 * itself is core/theme-colors.ts (the server paints a public page's first frame with it too).
 */

import type { CSSProperties } from 'react';
import type { ColorSettings } from '../../core/types';
import { themeVariables } from '../../core/theme-colors';

/** The style that applies a corporate's colours to everything inside the element. */
export function corporateThemeStyle(colores: ColorSettings | null | undefined): CSSProperties {
  return themeVariables(colores);
}
