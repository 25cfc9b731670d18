import { describe, expect, it } from 'vitest';
import {
  RANDOM_ID_LENGTH,
  detectBrowser,
  isValidPassword,
  monthsBetween,
  prefixMediaId,
  randomId,
  startOfWeekMonday,
} from '../../../src/core/misc';
import { seededRandom } from '../../fixtures/quote-rows';

describe('misc rules (spec §5, §9)', () => {
  it('password: an uppercase letter, a digit and more than 8 characters', () => {
    expect(isValidPassword('Abcdefgh1')).toBe(true);
    expect(isValidPassword('Abcdefg1')).toBe(false); // 8 characters
    expect(isValidPassword('abcdefgh1')).toBe(false);
    expect(isValidPassword('Abcdefghi')).toBe(false);
  });

  it('media ids get the base prefix unless already present', () => {
    expect(prefixMediaId('abc.jpg', 'media/')).toBe('media/abc.jpg');
    expect(prefixMediaId('media/abc.jpg', 'media/')).toBe('media/abc.jpg');
  });

  it('random ids have 8 characters from the injected source', () => {
    expect(RANDOM_ID_LENGTH).toBe(8);
    const a = randomId(seededRandom(1));
    expect(a).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(randomId(seededRandom(1))).toBe(a);
    expect(randomId(() => 0)).toBe('AAAAAAAA');
    expect(randomId(() => 0.9999999)).toBe('99999999');
  });

  it('names each browser (Edge before Chrome, Chrome before Safari: the spec’s list is a display order), else Desconocido', () => {
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
    const chrome =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
    const safari =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
    const ipad =
      'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
    expect(detectBrowser(firefox)).toBe('Firefox');
    expect(detectBrowser(chrome)).toBe('Chrome');
    expect(detectBrowser(safari)).toBe('Safari');
    expect(detectBrowser(ipad)).toBe('Safari');
    expect(detectBrowser(`${chrome} Edg/126.0`)).toBe('Edge');
    expect(detectBrowser('Mozilla/5.0 (Windows NT 10.0) Chrome/70.0 Safari/537.36 Edge/18.0')).toBe(
      'Edge',
    );
    expect(detectBrowser(ipad.replace('Version/17.5', 'EdgiOS/126.0'))).toBe('Edge');
    expect(detectBrowser(ipad.replace('Version/17.5', 'CriOS/126.0'))).toBe('Chrome');
    expect(detectBrowser(ipad.replace('Version/17.5', 'FxiOS/128.0'))).toBe('Firefox');
    expect(detectBrowser('curl/8.0')).toBe('Desconocido');
    expect(detectBrowser('')).toBe('Desconocido');
  });

  it('the week starts Monday, in the given time zone', () => {
    // Sunday 2024-06-09 20:00 in Mexico City is Monday 02:00 UTC.
    const sundayEvening = new Date('2024-06-10T02:00:00Z');
    expect(startOfWeekMonday(sundayEvening, 'America/Mexico_City').toISOString()).toBe(
      '2024-06-03T06:00:00.000Z',
    );
    expect(startOfWeekMonday(sundayEvening, 'UTC').toISOString()).toBe('2024-06-10T00:00:00.000Z');
  });

  it('counts whole months between dates', () => {
    expect(monthsBetween(new Date('2024-01-15T00:00:00Z'), new Date('2024-02-14T23:59:00Z'))).toBe(
      0,
    );
    // From the last day of a month to the last day of a later one counts whole months.
    expect(monthsBetween(new Date('2024-01-31T00:00:00Z'), new Date('2024-02-29T00:00:00Z'))).toBe(
      1,
    );
    expect(monthsBetween(new Date('2024-03-31T00:00:00Z'), new Date('2024-01-31T00:00:00Z'))).toBe(
      -2,
    );
    expect(monthsBetween(new Date('2024-01-15T00:00:00Z'), new Date('2025-01-15T00:00:00Z'))).toBe(
      12,
    );
  });
});
