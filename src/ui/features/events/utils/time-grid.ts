/**
 * The day and week time grid's arithmetic (issue 23 point 3): the hours a grid shows, where an
 * appointment sits in its day's column (minutes from the day's start, in the corporate's time
 * zone), overlapping appointments side by side in lanes, and the instant a drag lands on,
 * snapped to 15 minutes.
 */
import { dayOf, instantOf, timeOf } from './calendar';

/** Minutes from the start of the slot grid's rows. */
export const SLOT_MINUTES = 30;
export const SNAP_MINUTES = 15;
/** The hours a grid shows when nothing falls outside them (a showroom's usual day). */
export const DEFAULT_FIRST_HOUR = 8;
export const DEFAULT_LAST_HOUR = 20;

/** Minutes after midnight of an instant, on its calendar day in the zone. */
export function minuteOfDay(iso: string, zone: string): number {
  const [h, m] = timeOf(iso, zone).split(':').map(Number) as [number, number];
  return h * 60 + m;
}

export interface Placed<T> {
  item: T;
  /** The calendar day (zone) the block is drawn on. */
  day: string;
  /** Minutes after midnight, clamped to the day. */
  start: number;
  end: number;
  /** Side by side: this block's lane and the lanes of its cluster of overlapping blocks. */
  lane: number;
  lanes: number;
}

/**
 * Where each appointment sits: on the day it starts (zone), from its start to its end (an
 * appointment running past midnight stops at the day's end), at least 15 minutes tall.
 * Appointments that overlap share their cluster's width in lanes, first come leftmost.
 */
export function placeAppointments<T extends { id: string; fechaInicio: string; fechaFin: string }>(
  items: readonly T[],
  zone: string,
): Placed<T>[] {
  const byDay = new Map<string, Placed<T>[]>();
  for (const item of items) {
    const day = dayOf(item.fechaInicio, zone);
    const start = minuteOfDay(item.fechaInicio, zone);
    const sameDay = dayOf(item.fechaFin, zone) === day;
    const rawEnd = sameDay ? minuteOfDay(item.fechaFin, zone) : 24 * 60;
    const end = Math.min(24 * 60, Math.max(rawEnd, start + SNAP_MINUTES));
    const list = byDay.get(day) ?? [];
    list.push({ item, day, start, end, lane: 0, lanes: 1 });
    byDay.set(day, list);
  }
  const placed: Placed<T>[] = [];
  for (const list of byDay.values()) {
    list.sort((a, b) => a.start - b.start || b.end - a.end || a.item.id.localeCompare(b.item.id));
    let cluster: Placed<T>[] = [];
    let laneEnds: number[] = [];
    let clusterEnd = -1;
    const close = () => {
      for (const p of cluster) p.lanes = laneEnds.length;
      cluster = [];
      laneEnds = [];
      clusterEnd = -1;
    };
    for (const p of list) {
      if (p.start >= clusterEnd) close();
      let lane = laneEnds.findIndex((end) => end <= p.start);
      if (lane === -1) {
        lane = laneEnds.length;
        laneEnds.push(p.end);
      } else laneEnds[lane] = p.end;
      p.lane = lane;
      cluster.push(p);
      clusterEnd = Math.max(clusterEnd, p.end);
    }
    close();
    placed.push(...list);
  }
  return placed;
}

/** The grid's first and last hour: the default day, widened to show every placed block. */
export function hourRange(placed: readonly { start: number; end: number }[]): [number, number] {
  let first = DEFAULT_FIRST_HOUR;
  let last = DEFAULT_LAST_HOUR;
  for (const p of placed) {
    first = Math.min(first, Math.floor(p.start / 60));
    last = Math.max(last, Math.ceil(p.end / 60));
  }
  return [Math.max(0, first), Math.min(24, last)];
}

/** `HH:mm` of minutes after midnight. */
export function clockOf(minutes: number): string {
  const m = Math.max(0, Math.min(24 * 60 - 1, minutes));
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** Rounds minutes to the nearest 15. */
export const snap = (minutes: number) => Math.round(minutes / SNAP_MINUTES) * SNAP_MINUTES;

/**
 * Where a dragged appointment lands: `day` and its start moved by `deltaMinutes` (snapped to
 * 15, kept inside the day so it never starts before 00:00 or ends after 24:00), its duration
 * unchanged. Instants in UTC ISO; wall-clock times in the zone.
 */
export function movedTo(
  cita: { fechaInicio: string; fechaFin: string },
  day: string,
  deltaMinutes: number,
  zone: string,
): { fechaInicio: string; fechaFin: string; day: string; time: string } {
  const duration = Date.parse(cita.fechaFin) - Date.parse(cita.fechaInicio);
  const durationMinutes = Math.round(duration / 60_000);
  const latest = Math.max(0, 24 * 60 - Math.min(durationMinutes, 24 * 60));
  const start = Math.min(
    latest - (latest % SNAP_MINUTES),
    Math.max(0, snap(minuteOfDay(cita.fechaInicio, zone) + deltaMinutes)),
  );
  const time = clockOf(start);
  const fechaInicio = instantOf(day, time, zone);
  return {
    fechaInicio,
    fechaFin: new Date(Date.parse(fechaInicio) + duration).toISOString(),
    day,
    time,
  };
}
