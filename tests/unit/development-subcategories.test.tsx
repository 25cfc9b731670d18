/**
 * Spec §3 Development `subcategorias` (the spec gives the data only): shown on the development's
 * presentation, trimmed, without blanks or repeats; nothing shown when it has none.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { subcategoriesOf } from '../../src/core/development-settings';
import { DevelopmentSubcategories } from '../../src/ui/features/inventory/components/presentation-page';

// Panda's generated classes are not what this test reads (the listed subcategories are).
vi.mock('styled-system/css', () => ({ css: () => '', cva: () => () => '' }));

describe('subcategorias', () => {
  it('are listed in their order, trimmed, without blanks or repeats', () => {
    expect(subcategoriesOf({})).toEqual([]);
    expect(subcategoriesOf({ subcategorias: ['Lujo ', '', 'Residencial', 'Lujo'] })).toEqual([
      'Lujo',
      'Residencial',
    ]);
  });

  it("the presentation shows the development's subcategories, and nothing when it has none", () => {
    const html = renderToStaticMarkup(
      <DevelopmentSubcategories
        items={subcategoriesOf({ subcategorias: ['Lujo', 'Residencial'] })}
      />,
    );
    expect(html).toContain('data-testid="development-subcategories"');
    expect(html).toContain('<li class="">Lujo</li><li class="">Residencial</li>');
    expect(renderToStaticMarkup(<DevelopmentSubcategories items={subcategoriesOf({})} />)).toBe('');
  });
});
