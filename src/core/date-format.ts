/**
 * Every date and time a person reads, written by one formatter (issue 19, defect 8), so the same
 * instant reads the same on every screen, in notifications and on the buyer's pages.
 *
 * The rules, once:
 * - **Zone.** Instants are shown in the corporate's time zone (`Corporate.zonaHoraria`), never the
 *   browser's; a missing or unknown zone is UTC (as the server's reports and reminders do).
 * - **Locale.** `en` is written as en-US, anything else as es-MX.
 * - **Clock.** Spanish uses the 24-hour clock with two-digit hours (`18:12`, `09:05`), as Mexico's
 *   official notation (NOM-008-SCFI) and the calendar, reminders and arrival notices already
 *   write it; English uses the 12-hour clock (`6:12 PM`). The hour cycle is set explicitly, so
 *   no browser's locale data can change it.
 * - **Calendar days.** A day without a time (`2027-12-15`: a delivery date, a guest's visit) is
 *   that day everywhere, whatever the zone.
 */

export type DateLanguage = 'es' | 'en';

/** An instant as the app holds one: a Date or an ISO string. */
export type Instant = Date | string;

/**
 * The ways a date is written: `date` `5 dic 2026` / `Dec 5, 2026`; `dateLong` `5 de diciembre
 * de 2026` / `December 5, 2026`; `monthYear` `diciembre de 2026` / `December 2026`; `dateTime`
 * `5 dic 2026, 18:12` / `Dec 5, 2026, 6:12 PM`; `dateTimeLong` the long date with the time;
 * `time` `18:12` / `6:12 PM`; `weekdayDate` `vie, 5 dic` / `Fri, Dec 5`; `weekdayDateLong`
 * `viernes, 5 de diciembre de 2026` / `Friday, December 5, 2026`.
 */
export type DateStyle =
  | 'date'
  | 'dateLong'
  | 'monthYear'
  | 'dateTime'
  | 'dateTimeLong'
  | 'time'
  | 'weekdayDate'
  | 'weekdayDateLong';

/** The date fields a calendar-day label may ask for (no time: a day has none). */
export type DayFields = Pick<Intl.DateTimeFormatOptions, 'weekday' | 'day' | 'month' | 'year'>;

export const dateLanguageOf = (language: string | null | undefined): DateLanguage =>
  language === 'en' ? 'en' : 'es';

/** The locale a language's dates and numbers are written in. */
export const localeOfLanguage = (language: string | null | undefined): 'en-US' | 'es-MX' =>
  dateLanguageOf(language) === 'en' ? 'en-US' : 'es-MX';

const TIME: Record<DateLanguage, Intl.DateTimeFormatOptions> = {
  es: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  en: { hour: 'numeric', minute: '2-digit', hourCycle: 'h12' },
};

const DATE_FIELDS: Record<Exclude<DateStyle, 'time'>, DayFields> = {
  date: { day: 'numeric', month: 'short', year: 'numeric' },
  dateLong: { day: 'numeric', month: 'long', year: 'numeric' },
  monthYear: { month: 'long', year: 'numeric' },
  dateTime: { day: 'numeric', month: 'short', year: 'numeric' },
  dateTimeLong: { day: 'numeric', month: 'long', year: 'numeric' },
  weekdayDate: { weekday: 'short', day: 'numeric', month: 'short' },
  weekdayDateLong: { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' },
};

const WITH_TIME: ReadonlySet<DateStyle> = new Set(['dateTime', 'dateTimeLong', 'time']);

function optionsOf(style: DateStyle, language: DateLanguage): Intl.DateTimeFormatOptions {
  if (style === 'time') return TIME[language];
  return WITH_TIME.has(style)
    ? { ...DATE_FIELDS[style], ...TIME[language] }
    : { ...DATE_FIELDS[style] };
}

const validZones = new Map<string, boolean>();

/** The zone to show instants in: `zone` when it is a known IANA zone, else UTC. */
export function displayZone(zone: string | null | undefined): string {
  if (!zone) return 'UTC';
  let valid = validZones.get(zone);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      valid = true;
    } catch {
      valid = false;
    }
    validZones.set(zone, valid);
  }
  return valid ? zone : 'UTC';
}

// Building an Intl.DateTimeFormat costs far more than using one: a list of 1,000 leads asks for
// the same few, so they are kept by locale, zone and fields.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(locale: string, timeZone: string, options: Intl.DateTimeFormatOptions) {
  const key = `${locale}|${timeZone}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    if (formatters.size > 500) formatters.clear();
    formatters.set(key, f);
  }
  return f;
}

const DAY_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** True for a calendar day without a time (`2027-12-15`). */
export const isCalendarDay = (value: unknown): value is string =>
  typeof value === 'string' && DAY_SHAPE.test(value);

/**
 * An instant as people read it, in `timeZone` (the corporate's; UTC when unknown) and the
 * language's locale and clock. A calendar day (`2027-12-15`) is that day in any zone. An
 * unreadable value gives an empty string.
 */
export function formatInstant(
  at: Instant,
  style: DateStyle,
  language: string | null | undefined,
  timeZone: string | null | undefined,
): string {
  const lang = dateLanguageOf(language);
  const day = isCalendarDay(at);
  const date = day ? new Date(`${at}T12:00:00Z`) : new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  const zone = day ? 'UTC' : displayZone(timeZone);
  return formatterOf(localeOfLanguage(lang), zone, optionsOf(style, lang)).format(date);
}

/** An instant given in seconds since the epoch (the spec's `fechaAlta`), as {@link formatInstant}. */
export function formatEpochSeconds(
  seconds: number,
  style: DateStyle,
  language: string | null | undefined,
  timeZone: string | null | undefined,
): string {
  return formatInstant(new Date(seconds * 1000), style, language, timeZone);
}

/**
 * A calendar day (`YYYY-MM-DD`) with the date fields asked for: `{ weekday: 'short' }` is
 * `lun` / `Mon`. The calendar's headings and a showroom's day use it.
 */
export function formatCalendarDay(day: string, fields: DayFields, language: string): string {
  if (!isCalendarDay(day)) return '';
  return formatterOf(localeOfLanguage(language), 'UTC', { ...fields }).format(
    new Date(`${day}T12:00:00Z`),
  );
}

const CLOCK_SHAPE = /^(\d{1,2}):(\d{2})$/;

/**
 * A wall-clock time written `HH:mm` (a calendar slot, a reminder's `hora`) with the language's
 * clock: `18:12` stays `18:12` in Spanish and is `6:12 PM` in English. Anything else is returned
 * as given.
 */
export function formatClockTime(hhmm: string, language: string | null | undefined): string {
  const match = CLOCK_SHAPE.exec(hhmm);
  if (!match) return hhmm;
  const [hours, minutes] = [Number(match[1]), Number(match[2])];
  if (hours > 23 || minutes > 59) return hhmm;
  const lang = dateLanguageOf(language);
  return formatterOf(localeOfLanguage(lang), 'UTC', TIME[lang]).format(
    new Date(Date.UTC(2000, 0, 1, hours, minutes)),
  );
}
