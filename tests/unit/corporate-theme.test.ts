import { describe, expect, it } from 'vitest';
import { corporateThemeStyle } from '../../src/ui/theme/corporate-theme';

describe('corporate theme', () => {
  it('turns colour settings into the CSS variables the Panda tokens read', () => {
    expect(
      corporateThemeStyle({
        colorFondoPrincipal: '#f4f7fb',
        colorBotonPrimario: '#0B6BCB',
        colorResaltado: 'rgb(245, 165, 36)',
      }),
    ).toEqual({
      '--vt-colorFondoPrincipal': '#f4f7fb',
      '--vt-colorBotonPrimario': '#0B6BCB',
      '--vt-colorResaltado': 'rgb(245, 165, 36)',
    });
  });
  it('drops values that are not plain colours (no CSS injection)', () => {
    expect(
      corporateThemeStyle({
        colorFondoPrincipal: 'red; background: url(https://evil)',
        colorEnlace: 'expression(alert(1))',
      }),
    ).toEqual({});
    expect(corporateThemeStyle(undefined)).toEqual({});
  });
});
