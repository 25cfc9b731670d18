/**
 * Calendar arithmetic on days written `YYYY-MM-DD` (the corporate's calendar days): weeks start
 * on Monday (spec §9), a month view shows the six weeks around the month, and a day's instants
 * come from core/check-in.ts `dayBounds` in the corporate's time zone.
 */
import { TZDate } from '@date-fns/tz';
import { dayBounds, localDay } from '../../../../core/check-in';

export type CalendarView = 'agenda' | 'dia' | 'semana' | 'mes';
export const CALENDAR_VIEWS: readonly CalendarView[] = ['agenda', 'dia', 'semana', 'mes'];

const parts = (day: string) => day.split('-').map(Number) as [number, number, number];

export function addDays(day: string, n: number): string {
  const [y, m, d] = parts(day);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** 0 = Monday … 6 = Sunday. */
export function weekdayIndex(day: string): number {
  const [y, m, d] = parts(day);
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
}

export const mondayOf = (day: string) => addDays(day, -weekdayIndex(day));

export function monthOf(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

export function addMonths(day: string, n: number): string {
  const [y, m] = parts(day);
  return new Date(Date.UTC(y, m - 1 + n, 1)).toISOString().slice(0, 10);
}

/** The days a view shows, first to last. */
export function viewDays(view: CalendarView, day: string): string[] {
  if (view === 'agenda' || view === 'dia') return [day];
  if (view === 'semana') {
    const monday = mondayOf(day);
    return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  }
  const first = mondayOf(monthOf(day));
  return Array.from({ length: 42 }, (_, i) => addDays(first, i));
}

/** The instants a view reads: from its first day's start to its last day's end, in the zone. */
export function viewRange(view: CalendarView, day: string, zone: string) {
  const days = viewDays(view, day);
  return {
    fechaInicio: dayBounds(days[0]!, zone).start.toISOString(),
    fechaFin: dayBounds(days[days.length - 1]!, zone).end.toISOString(),
  };
}

/** The next or previous period of a view. */
export function stepDay(view: CalendarView, day: string, direction: 1 | -1): string {
  if (view === 'semana') return addDays(day, 7 * direction);
  if (view === 'mes') return addMonths(day, direction);
  return addDays(day, direction);
}

export const today = (zone: string) => localDay(new Date(), zone);

/** The calendar day of an instant in the zone. */
export const dayOf = (iso: string, zone: string) => localDay(new Date(iso), zone);

/** `HH:mm` of an instant in the zone. */
export function timeOf(iso: string, zone: string): string {
  const d = new TZDate(Date.parse(iso), zone);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** The instant of a day and `HH:mm` in the zone, as ISO (UTC). */
export function instantOf(day: string, time: string, zone: string): string {
  const [y, m, d] = parts(day);
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  return new Date(new TZDate(y, m - 1, d, hh, mm, 0, 0, zone).getTime()).toISOString();
}

/** A valid IANA zone for the corporate, UTC otherwise. */
export function zoneOf(zonaHoraria: string | undefined): string {
  if (!zonaHoraria) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: zonaHoraria });
    return zonaHoraria;
  } catch {
    return 'UTC';
  }
}
