import { defineConfig, minimal2023Preset, type Preset } from '@vite-pwa/assets-generator/config';
import panda from './panda.config';

/**
 * The installable app's icons, generated at build time (`vite build`, through vite-plugin-pwa's
 * `pwaAssets`) from one SVG, `public/icon.svg`: nothing generated is committed. sharp renders
 * them offline (prebuilt binaries inside the npm package).
 *
 * Preset minimal-2023: pwa-64x64.png, pwa-192x192.png, pwa-512x512.png (purpose any),
 * maskable-icon-512x512.png (purpose maskable), apple-touch-icon-180x180.png, favicon.ico.
 */

/** A colour of Panda's theme: the fallback of its semantic token (`var(--x, #14213d)`). */
function themeColour(token: 'sidebar' | 'bg'): string {
  const colours = panda.theme?.extend?.semanticTokens?.colors as
    Record<string, { value?: unknown }> | undefined;
  const value = colours?.[token]?.value;
  const hex = typeof value === 'string' ? /#[0-9a-f]{3,8}\b/i.exec(value)?.[0] : undefined;
  if (!hex) throw new Error(`panda.config.ts: no colour in the semantic token ${token}`);
  return hex;
}

/** The colours of the manifest and the icons' backgrounds, from the Panda theme. */
export const PWA_COLOURS = { theme: themeColour('sidebar'), background: themeColour('bg') };

// Maskable and Apple icons have no transparency: the logo's own navy fills the safe-zone padding.
const preset: Preset = {
  ...minimal2023Preset,
  maskable: { sizes: [512], padding: 0.3, resizeOptions: { background: PWA_COLOURS.theme } },
  apple: { sizes: [180], padding: 0.3, resizeOptions: { background: PWA_COLOURS.theme } },
};

export default defineConfig({
  headLinkOptions: { preset: '2023' },
  preset,
  images: ['public/icon.svg'],
});
