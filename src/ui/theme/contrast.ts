/** Legible text on a colour of the corporate's (status pills, legends): WCAG 2 contrast. */

/**
 * The WCAG 2 relative luminance of a `#rgb` or `#rrggbb` colour (an alpha part is ignored);
 * undefined when it is neither.
 */
export function relativeLuminance(hex: string): number | undefined {
  const text = hex.trim().replace(/^#/, '');
  const digits = /^[0-9a-f]{3}$/i.test(text)
    ? [...text].map((d) => d + d)
    : /^[0-9a-f]{6}/i.test(text)
      ? [text.slice(0, 2), text.slice(2, 4), text.slice(4, 6)]
      : undefined;
  if (!digits) return undefined;
  const [r, g, b] = digits.map((x) => {
    const c = parseInt(x, 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG 2 contrast ratio of two relative luminances, from 1 to 21. */
export function contrastRatio(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/**
 * The text colours a status colour can carry. Pure black and white: every colour reaches
 * 4.58:1 (√21) or more against one of them, so the better one always passes WCAG AA (with
 * #111111 as the dark text, a mid red such as #d64545 failed with both).
 */
export const DARK_TEXT = '#000000';
export const LIGHT_TEXT = '#FFFFFF';

/**
 * The text colour for a status colour: dark or white, whichever has the higher WCAG contrast
 * ratio against it (a fixed luminance threshold put white on mid greens and reds, where it
 * fails AA while dark text passes).
 */
export function textOn(hex: string): string {
  const background = relativeLuminance(hex);
  if (background === undefined) return DARK_TEXT;
  const dark = contrastRatio(background, relativeLuminance(DARK_TEXT)!);
  const light = contrastRatio(background, 1);
  return dark >= light ? DARK_TEXT : LIGHT_TEXT;
}
