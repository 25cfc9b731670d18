/**
 * The app's one date and time formatter (issue 19, defect 8): the corporate's zone, never the
 * browser's; Spanish on the 24-hour clock, English on the 12-hour clock; the same instant reads
 * the same through every screen's entry point.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  displayZone,
  formatCalendarDay,
  formatClockTime,
  formatEpochSeconds,
  formatInstant,
} from '../../../src/core/date-format';
import { renderNotification } from '../../../src/core/notifications';
import { formatDate, formatDateTime } from '../../../src/ui/lib/dates';
import { formatClock } from '../../../src/ui/features/check-in/utils/format';

// ICU writes a narrow no-break space before AM/PM; the tests read it as a space.
const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');

// The "browser" sits in Tokyo (UTC+9), far from every corporate zone below.
const previousTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  if (previousTz === undefined) delete process.env.TZ;
  else process.env.TZ = previousTz;
});

// 2026-12-06 00:12 UTC: 5 December 18:12 in Mexico City (UTC−6), 16:12 in Tijuana (UTC−8),
// 6 December 09:12 in Tokyo.
const INSTANT = '2026-12-06T00:12:00Z';
const SECONDS = Date.parse(INSTANT) / 1000;

describe('formatInstant', () => {
  it('the process runs in Tokyo, so a zone-less Date would read 6 December', () => {
    expect(new Date(INSTANT).getDate()).toBe(6);
    expect(new Date(INSTANT).getHours()).toBe(9);
  });

  it('in America/Mexico_City: es 24-hour, en 12-hour, on 5 December', () => {
    const zone = 'America/Mexico_City';
    expect(plain(formatInstant(INSTANT, 'dateTime', 'es', zone))).toBe('5 dic 2026, 18:12');
    expect(plain(formatInstant(INSTANT, 'dateTime', 'en', zone))).toBe('Dec 5, 2026, 6:12 PM');
    expect(plain(formatInstant(INSTANT, 'time', 'es', zone))).toBe('18:12');
    expect(plain(formatInstant(INSTANT, 'time', 'en', zone))).toBe('6:12 PM');
    expect(formatInstant(INSTANT, 'date', 'es', zone)).toBe('5 dic 2026');
    expect(formatInstant(INSTANT, 'date', 'en', zone)).toBe('Dec 5, 2026');
    expect(plain(formatInstant(INSTANT, 'dateTimeLong', 'es', zone))).toBe(
      '5 de diciembre de 2026 a las 18:12',
    );
    expect(plain(formatInstant(INSTANT, 'dateTimeLong', 'en', zone))).toBe(
      'December 5, 2026 at 6:12 PM',
    );
  });

  it('in another corporate zone (America/Tijuana) the same instant is 16:12 / 4:12 PM', () => {
    const zone = 'America/Tijuana';
    expect(plain(formatInstant(INSTANT, 'dateTime', 'es', zone))).toBe('5 dic 2026, 16:12');
    expect(plain(formatInstant(INSTANT, 'dateTime', 'en', zone))).toBe('Dec 5, 2026, 4:12 PM');
  });

  it('morning hours: two digits in Spanish, none in English', () => {
    const morning = '2026-12-05T15:05:00Z'; // 09:05 in Mexico City
    expect(plain(formatInstant(morning, 'time', 'es', 'America/Mexico_City'))).toBe('09:05');
    expect(plain(formatInstant(morning, 'time', 'en', 'America/Mexico_City'))).toBe('9:05 AM');
  });

  it('no zone or an unknown one is UTC, not the browser zone', () => {
    expect(displayZone(undefined)).toBe('UTC');
    expect(displayZone('Mars/Olympus')).toBe('UTC');
    expect(displayZone('America/Mexico_City')).toBe('America/Mexico_City');
    expect(plain(formatInstant(INSTANT, 'dateTime', 'es', null))).toBe('6 dic 2026, 00:12');
    expect(plain(formatInstant(INSTANT, 'dateTime', 'en', 'Mars/Olympus'))).toBe(
      'Dec 6, 2026, 12:12 AM',
    );
  });

  it('a calendar day is that day in every zone', () => {
    for (const zone of ['America/Mexico_City', 'Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      expect(formatInstant('2027-12-15', 'date', 'es', zone)).toBe('15 dic 2027');
      expect(formatInstant('2027-12-15', 'monthYear', 'en', zone)).toBe('December 2027');
    }
    expect(formatCalendarDay('2026-12-05', { weekday: 'short' }, 'en')).toBe('Sat');
    expect(formatCalendarDay('2026-12-05', { weekday: 'long', day: 'numeric' }, 'es')).toBe(
      'sábado 5',
    );
  });

  it('an unreadable instant is an empty text', () => {
    expect(formatInstant('not a date', 'dateTime', 'es', 'America/Mexico_City')).toBe('');
  });
});

describe('every screen reads the same instant the same', () => {
  for (const [lang, expected] of [
    ['es', '5 dic 2026, 18:12'],
    ['en', 'Dec 5, 2026, 6:12 PM'],
  ] as const) {
    it(`${lang}: lead detail (epoch seconds), notes and share links (ISO), check-ins (clock)`, () => {
      const zone = 'America/Mexico_City';
      // Lead and user dates are epoch seconds; notes, share links and history ISO strings.
      expect(plain(formatEpochSeconds(SECONDS, 'dateTime', lang, zone))).toBe(expected);
      expect(plain(formatDateTime(SECONDS, lang, zone))).toBe(expected);
      expect(plain(formatDateTime(INSTANT, lang, zone))).toBe(expected);
      expect(plain(formatDate(INSTANT, lang, zone))).toBe(
        expected.split(',').slice(0, -1).join(','),
      );
      // The check-in board's arrival time and the reminder's `hora` use the same clock.
      const time = expected.split(', ').at(-1)!;
      expect(plain(formatClock(SECONDS, lang, zone))).toBe(time);
      expect(plain(formatClockTime('18:12', lang))).toBe(time);
    });
  }
});

describe('formatClockTime', () => {
  it('HH:mm with the language clock; anything else as given', () => {
    expect(formatClockTime('18:12', 'es')).toBe('18:12');
    expect(plain(formatClockTime('18:12', 'en'))).toBe('6:12 PM');
    expect(plain(formatClockTime('00:00', 'en'))).toBe('12:00 AM');
    expect(formatClockTime('9:05', 'es')).toBe('09:05');
    expect(formatClockTime('25:00', 'en')).toBe('25:00');
    expect(formatClockTime('mañana', 'en')).toBe('mañana');
  });

  it("the appointment reminder's time follows the reader's clock", () => {
    const n = {
      tipo: 'cita.recordatorio' as const,
      params: { cliente: 'Ana', hora: '18:12', showroom: 'Alameda' },
    };
    expect(renderNotification(n, 'es').mensaje).toBe(
      'Tienes una cita con Ana a las 18:12 en Alameda',
    );
    expect(plain(renderNotification(n, 'en').mensaje)).toBe(
      'You have an appointment with Ana at 6:12 PM at Alameda',
    );
  });
});
