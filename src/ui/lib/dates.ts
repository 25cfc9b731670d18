/**
 * Dates as every page shows them, through the one formatter (`core/date-format.ts`): the
 * interface language's locale and clock (es 24-hour, en 12-hour) and the corporate's time zone,
 * never the browser's.
 */

import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  formatCalendarDay,
  formatClockTime,
  formatInstant,
  type DateStyle,
  type DayFields,
} from '../../core/date-format';

/** A number is seconds since the epoch (the spec's `fechaAlta`); a string, ISO. */
const instantOf = (at: string | number | Date) =>
  typeof at === 'number' ? new Date(at * 1000) : at;

/**
 * A calendar date in the interface language and the corporate's time zone, the day without a
 * leading zero like every other date of the app: `5 dic 2026`, `Dec 5, 2026`.
 */
export function formatDate(iso: string | number | Date, language: string, timeZone?: string) {
  return formatInstant(instantOf(iso), 'date', language, timeZone);
}

/** An instant with its time, in the interface language and the corporate's time zone. */
export function formatDateTime(iso: string | number | Date, language: string, timeZone?: string) {
  return formatInstant(instantOf(iso), 'dateTime', language, timeZone);
}

export interface DateFormatter {
  /** An instant (ISO, Date, or epoch seconds) in one of the app's styles. */
  (at: string | number | Date, style?: DateStyle): string;
  /** A calendar day (`YYYY-MM-DD`) with the date fields asked for. */
  day: (day: string, fields: DayFields) => string;
  /** A wall-clock `HH:mm` with the language's clock. */
  clock: (hhmm: string) => string;
}

/**
 * The formatter of a screen: the interface's language and `timeZone`, the corporate's
 * (`corporate.zonaHoraria`). `format(lead.fechaAlta, 'dateTimeLong')`.
 */
export function useDateFormat(timeZone: string | null | undefined): DateFormatter {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(
    () =>
      Object.assign(
        (at: string | number | Date, style: DateStyle = 'date') =>
          formatInstant(instantOf(at), style, language, timeZone),
        {
          day: (day: string, fields: DayFields) => formatCalendarDay(day, fields, language),
          clock: (hhmm: string) => formatClockTime(hhmm, language),
        },
      ),
    [language, timeZone],
  );
}
