/**
 * Calendar arithmetic on days written `YYYY-MM-DD` (the corporate's calendar days): weeks start
 * on Monday (spec §9), a month view shows the six weeks around the month, and a day's instants
 * come from core/check-in.ts `dayBounds` in the corporate's time zone.
 */
import { TZDate, tzOffset } from '@date-fns/tz';
import { displayZone } from '../../../../core/date-format';
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

/**
 * The zone's UTC offset (minutes) at an instant. A month view folds thousands of appointments
 * into days, and asking Intl for each costs tens of milliseconds, so the offset is kept per UTC
 * day: one that is the same at both ends of the day holds all day (no change of time inside);
 * a day with a change asks for each instant.
 */
const DAY_MS = 86_400_000;
const dayOffsets = new Map<string, number>();
function offsetAt(t: number, zone: string): number {
  const day = Math.floor(t / DAY_MS);
  const key = `${zone}|${day}`;
  let offset = dayOffsets.get(key);
  if (offset === undefined) {
    const start = tzOffset(zone, new Date(day * DAY_MS));
    const end = tzOffset(zone, new Date((day + 1) * DAY_MS - 1));
    offset = start === end ? start : Number.NaN;
    if (dayOffsets.size > 10_000) dayOffsets.clear();
    dayOffsets.set(key, offset);
  }
  return Number.isNaN(offset) ? tzOffset(zone, new Date(t)) : offset;
}

/** The wall clock of an instant in the zone, as a Date read with its UTC getters. */
function wallClock(iso: string, zone: string): Date {
  const t = Date.parse(iso);
  return new Date(t + offsetAt(t, zone) * 60_000);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar day of an instant in the zone. */
export function dayOf(iso: string, zone: string): string {
  const w = wallClock(iso, zone);
  return `${w.getUTCFullYear()}-${pad(w.getUTCMonth() + 1)}-${pad(w.getUTCDate())}`;
}

/** `HH:mm` of an instant in the zone. */
export function timeOf(iso: string, zone: string): string {
  const w = wallClock(iso, zone);
  return `${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}`;
}

/** The instant of a day and `HH:mm` in the zone, as ISO (UTC). */
export function instantOf(day: string, time: string, zone: string): string {
  const [y, m, d] = parts(day);
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  return new Date(new TZDate(y, m - 1, d, hh, mm, 0, 0, zone).getTime()).toISOString();
}

/** A valid IANA zone for the corporate, UTC otherwise (the app's one rule, core/date-format). */
export const zoneOf = (zonaHoraria: string | undefined): string => displayZone(zonaHoraria);
