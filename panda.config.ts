import { defineConfig } from '@pandacss/dev';

/**
 * Corporate colours arrive at run time, so the semantic tokens point at CSS variables that the
 * corporate layout sets (see src/ui/theme/corporate-theme.ts); the fallbacks are Vitrina's own.
 */
export default defineConfig({
  preflight: true,
  include: ['./src/ui/**/*.{ts,tsx}'],
  exclude: [],
  jsxFramework: 'react',
  outdir: 'styled-system',
  theme: {
    extend: {
      tokens: {
        fonts: {
          body: { value: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
        },
      },
      semanticTokens: {
        colors: {
          bg: { value: 'var(--vt-colorFondoPrincipal, #f5f6f8)' },
          sidebar: { value: 'var(--vt-colorFondoBarraLateral, #14213d)' },
          sidebarText: { value: 'var(--vt-colorTextoBarraLateral, #ffffff)' },
          topbar: { value: 'var(--vt-colorFondoBarraSuperior, #ffffff)' },
          modal: { value: 'var(--vt-colorFondoModal, #ffffff)' },
          primary: { value: 'var(--vt-colorBotonPrimario, #1f6feb)' },
          primaryText: { value: 'var(--vt-colorTextoBotonPrimario, #ffffff)' },
          text: { value: 'var(--vt-colorTextoPrimario, #1d2433)' },
          highlight: { value: 'var(--vt-colorResaltado, #fca311)' },
          // Vitrina's own link blue, darker than the button blue: 4.7:1 or more on the tinted
          // surfaces too (#1f6feb fell to 4.3:1 on the page background).
          link: { value: 'var(--vt-colorEnlace, #1a62d6)' },
          // Secondary text: 4.6:1 or more on every tinted surface of the app (WCAG AA), down to
          // the border grey; #6b7280 fell to 4.3:1 on the tinted cards and the grid.
          muted: { value: '#5f6675' },
          border: { value: '#e3e6eb' },
          surface: { value: '#ffffff' },
          danger: { value: '#c62828' },
          // 5.2:1 on its own 10% tint (the saved-quotation confirmation); #2e7d32 was 4.49:1.
          success: { value: '#2a7230' },
        },
      },
    },
  },
});
