/**
 * Small rules of spec §5 and §9: passwords, media ids, random ids, browser names, calendar
 * helpers.
 */

import { differenceInMonths, startOfWeek } from 'date-fns';
import { TZDate } from '@date-fns/tz';

/** Spec §5 password helper: an uppercase letter, a digit, and length greater than 8. */
export function isValidPassword(password: string): boolean {
  return password.length > 8 && /\p{Lu}/u.test(password) && /\d/.test(password);
}

/** Spec §9: a media id gets the base prefix unless it already starts with it. */
export function prefixMediaId(idMedia: string, basePrefix: string): string {
  return idMedia.startsWith(basePrefix) ? idMedia : basePrefix + idMedia;
}

/** Spec §9: random ids have 8 characters. */
export const RANDOM_ID_LENGTH = 8;

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * An id of {@link RANDOM_ID_LENGTH} alphanumeric characters drawn with `random` (a
 * `Math.random`-like source returning values in [0, 1)), so tests can pass a seeded one.
 */
export function randomId(random: () => number, length = RANDOM_ID_LENGTH): string {
  let id = '';
  for (let i = 0; i < length; i++) {
    const r = random();
    const k = Math.min(ID_ALPHABET.length - 1, Math.max(0, Math.floor(r * ID_ALPHABET.length)));
    id += ID_ALPHABET[k];
  }
  return id;
}

/** The names {@link detectBrowser} returns. */
export type BrowserName = 'Firefox' | 'Chrome' | 'Safari' | 'Edge' | 'Desconocido';

/**
 * Spec §9 names the browsers Firefox, Chrome, Safari, Edge, else 'Desconocido'. That list is the
 * order the names are shown in, not an order that works for testing an agent: Chrome's user
 * agent also contains "Safari", and Edge's (Chromium "Edg/", legacy "Edge/", Android "EdgA/",
 * iOS "EdgiOS/") contains "Chrome" or "Safari". So Edge is tested before Chrome and Chrome
 * (with iOS's "CriOS/") before Safari, and each browser is named as it is.
 */
export function detectBrowser(userAgent: string): BrowserName {
  if (/Firefox\/|FxiOS\//.test(userAgent)) return 'Firefox';
  if (/Edg(e|A|iOS)?\//.test(userAgent)) return 'Edge';
  if (/Chrome\/|CriOS\//.test(userAgent)) return 'Chrome';
  if (/Safari\//.test(userAgent)) return 'Safari';
  return 'Desconocido';
}

/**
 * Spec §9: the week starts Monday. Midnight at the start of the Monday of `date`'s week in
 * `timeZone`, as an instant.
 */
export function startOfWeekMonday(date: Date, timeZone: string): Date {
  const start = startOfWeek(new TZDate(date.getTime(), timeZone), { weekStartsOn: 1 });
  return new Date(start.getTime());
}

/**
 * Whole calendar months from `from` to `to` in `timeZone` (default 'UTC'); negative when `to`
 * is earlier. The spec computes it from the current date, which callers pass as `from`.
 */
export function monthsBetween(from: Date, to: Date, timeZone = 'UTC'): number {
  return differenceInMonths(
    new TZDate(to.getTime(), timeZone),
    new TZDate(from.getTime(), timeZone),
  );
}
