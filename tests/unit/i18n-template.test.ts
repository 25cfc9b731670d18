/**
 * `compileTranslation` (src/ui/i18n/template.ts) writes what i18next writes for the same key and
 * values, whatever the values hold, in both languages.
 */
import fc from 'fast-check';
import i18next from 'i18next';
import { expect, it } from 'vitest';
import { compileTranslation } from '../../src/ui/i18n/template';
import en from '../../src/ui/i18n/locales/en/inventory.json';
import es from '../../src/ui/i18n/locales/es/inventory.json';

it('fills the grid’s unit label as i18next does', async () => {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: 'es',
    resources: { es: { inventory: es }, en: { inventory: en } },
    defaultNS: 'inventory',
    interpolation: { escapeValue: false },
  });
  for (const lng of ['es', 'en']) {
    await i18n.changeLanguage(lng);
    const t = i18n.t;
    const label = compileTranslation(t, 'grid.unitLabel', ['name', 'status']);
    fc.assert(
      fc.property(fc.string(), fc.string(), (name, status) => {
        expect(label({ name, status })).toBe(t('grid.unitLabel', { name, status }));
      }),
    );
  }
});
