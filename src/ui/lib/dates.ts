/** Dates as every page shows them: in the interface language and the corporate's time zone. */

/**
 * A calendar date in the interface language and the corporate's time zone, the day without a
 * leading zero like every other date of the app: `5 dic 2026`, `Dec 5, 2026`.
 */
export function formatDate(iso: string | number | Date, language: string, timeZone?: string) {
  const date = typeof iso === 'number' ? new Date(iso * 1000) : new Date(iso);
  // A calendar date without a time ('2027-12-15') is that day everywhere, not UTC midnight.
  const dateOnly = typeof iso === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(iso);
  const zone = dateOnly ? 'UTC' : timeZone;
  try {
    return new Intl.DateTimeFormat(language === 'en' ? 'en-US' : 'es-MX', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      ...(zone ? { timeZone: zone } : {}),
    }).format(date);
  } catch {
    return date.toISOString().slice(0, 10);
  }
}

/** An instant with its time, in the interface language and the corporate's time zone. */
export function formatDateTime(iso: string, language: string, timeZone?: string) {
  const date = new Date(iso);
  try {
    return new Intl.DateTimeFormat(language === 'en' ? 'en-US' : 'es-MX', {
      dateStyle: 'medium',
      timeStyle: 'short',
      ...(timeZone ? { timeZone } : {}),
    }).format(date);
  } catch {
    return date.toISOString().slice(0, 16).replace('T', ' ');
  }
}
