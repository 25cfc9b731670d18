/** How the check-in screens write times and distances. */

import { formatInstant, localeOfLanguage } from '../../../../core/date-format';

/** The locale numbers are written in, as every page does (`core/date-format.ts`). */
export const localeOf = (language: string) => localeOfLanguage(language);

/** Seconds as `H:MM:SS` (the banner's countdown; 12 hours is `12:00:00`). */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(r).padStart(2, '0')}`;
}

/** A distance for people: metres under 1 km (`850 m`), else kilometres with two decimals at most (`1.45 km`). */
export function formatDistance(km: number, language: string): string {
  const locale = localeOf(language);
  if (km < 1) return `${Math.round(km * 1000).toLocaleString(locale)} m`;
  return `${(Math.round(km * 100) / 100).toLocaleString(locale, { maximumFractionDigits: 2 })} km`;
}

/**
 * An instant (seconds) as the hour and minute in the corporate's time zone, with the language's
 * clock (the app's one formatter).
 */
export function formatClock(seconds: number, language: string, timeZone: string): string {
  return formatInstant(new Date(seconds * 1000), 'time', language, timeZone);
}
