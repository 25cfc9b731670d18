import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import es from '../../src/ui/i18n/locales/es/inventory.json';
import en from '../../src/ui/i18n/locales/en/inventory.json';
import {
  holdLeftText,
  holdTimeLeft,
  statusWithHold,
} from '../../src/ui/features/inventory/utils/hold-time';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    lng: 'es',
    resources: { es: { inventory: es }, en: { inventory: en } },
    interpolation: { escapeValue: false },
  });
});

const end = '2026-11-24T10:00:00.000Z';
const at = (iso: string) => Date.parse(iso);

describe('hold time left', () => {
  it('whole hours and minutes, minutes rounded up, zero once passed', () => {
    expect(holdTimeLeft(end, at('2026-11-24T08:40:00.000Z'))).toEqual({ hours: 1, minutes: 20 });
    expect(holdTimeLeft(end, at('2026-11-24T08:40:30.000Z'))).toEqual({ hours: 1, minutes: 20 });
    expect(holdTimeLeft(end, at('2026-11-22T10:00:00.000Z'))).toEqual({ hours: 48, minutes: 0 });
    expect(holdTimeLeft(end, at('2026-11-24T10:00:01.000Z'))).toEqual({ hours: 0, minutes: 0 });
  });

  it('says it in es and en, and in the status a screen reader hears', async () => {
    const t = i18n.t.bind(i18n);
    await i18n.changeLanguage('es');
    expect(holdLeftText(t, end, at('2026-11-24T08:40:00.000Z'))).toBe('quedan 1 h 20 min');
    expect(holdLeftText(t, end, at('2026-11-24T09:55:00.000Z'))).toBe('quedan 5 min');
    expect(holdLeftText(t, end, at('2026-11-25T00:00:00.000Z'))).toBe('por liberarse');
    const held = {
      apartado: {
        idLead: 'l',
        nombreLead: 'Lucía',
        idVendedor: 'v',
        nombreVendedor: 'Sofía',
        desde: '2026-11-22T10:00:00.000Z',
        hastaEn: end,
      },
    };
    expect(statusWithHold(t, held, 'Apartado', at('2026-11-24T08:40:00.000Z'))).toBe(
      'Apartado, quedan 1 h 20 min',
    );
    expect(statusWithHold(t, {}, 'Disponible', 0)).toBe('Disponible');
    await i18n.changeLanguage('en');
    expect(holdLeftText(t, end, at('2026-11-24T08:40:00.000Z'))).toBe('1 h 20 min left');
  });
});
