import { TZDate } from '@date-fns/tz';
import { describe, expect, it } from 'vitest';
import { localDay } from '../../src/core/check-in';
import { dayOf, timeOf } from '../../src/ui/features/events/utils/calendar';
import {
  hourRange,
  minuteOfDay,
  movedTo,
  placeAppointments,
} from '../../src/ui/features/events/utils/time-grid';

const ZONE = 'America/Mexico_City'; // UTC−6, no daylight saving time since 2022
const at = (day: string, time: string) => new Date(`${day}T${time}:00-06:00`).toISOString();
const cita = (id: string, day: string, from: string, to: string) => ({
  id,
  fechaInicio: at(day, from),
  fechaFin: at(day, to),
});

describe('the time grid: where appointments sit', () => {
  it('places an appointment by its start and end in the zone, not in UTC', () => {
    // 23:30 in Mexico City is 05:30 UTC of the next day: it belongs to the local day.
    const [p] = placeAppointments([cita('a', '2026-03-02', '23:00', '23:30')], ZONE);
    expect(p).toMatchObject({ day: '2026-03-02', start: 23 * 60, end: 23 * 60 + 30 });
    expect(minuteOfDay(at('2026-03-02', '09:45'), ZONE)).toBe(9 * 60 + 45);
  });

  it('puts overlapping appointments side by side and the rest full width', () => {
    const placed = placeAppointments(
      [
        cita('a', '2026-03-02', '10:00', '11:00'),
        cita('b', '2026-03-02', '10:30', '11:30'),
        cita('c', '2026-03-02', '11:00', '12:00'), // overlaps b only: reuses a's lane
        cita('d', '2026-03-02', '13:00', '14:00'),
        cita('e', '2026-03-03', '10:00', '11:00'), // another day
      ],
      ZONE,
    );
    const by = Object.fromEntries(placed.map((p) => [p.item.id, p]));
    expect([by.a!.lane, by.b!.lane, by.c!.lane]).toEqual([0, 1, 0]);
    expect([by.a!.lanes, by.b!.lanes, by.c!.lanes]).toEqual([2, 2, 2]);
    expect([by.d!.lane, by.d!.lanes]).toEqual([0, 1]);
    expect([by.e!.lane, by.e!.lanes]).toEqual([0, 1]);
  });

  it('stops an appointment that runs past midnight at the end of its day', () => {
    const [p] = placeAppointments(
      [{ id: 'n', fechaInicio: at('2026-03-02', '23:00'), fechaFin: at('2026-03-03', '01:00') }],
      ZONE,
    );
    expect(p).toMatchObject({ start: 23 * 60, end: 24 * 60 });
  });

  it('shows 08:00–20:00 unless an appointment falls outside', () => {
    expect(hourRange([])).toEqual([8, 20]);
    expect(hourRange([{ start: 7 * 60 + 30, end: 21 * 60 + 15 }])).toEqual([7, 22]);
  });
});

describe('the time grid: dragging', () => {
  it('snaps a move to 15 minutes and keeps the duration', () => {
    const c = cita('a', '2026-03-02', '10:00', '11:30');
    const moved = movedTo(c, '2026-03-04', 37, ZONE); // 37 minutes → 30
    expect(moved).toEqual({
      day: '2026-03-04',
      time: '10:30',
      fechaInicio: at('2026-03-04', '10:30'),
      fechaFin: at('2026-03-04', '12:00'),
    });
    expect(movedTo(c, '2026-03-02', -7, ZONE).time).toBe('10:00');
    expect(movedTo(c, '2026-03-02', -8, ZONE).time).toBe('09:45');
    expect(movedTo(c, '2026-03-02', -53, ZONE).time).toBe('09:00');
  });

  it('keeps a moved appointment inside its day', () => {
    const c = cita('a', '2026-03-02', '10:00', '11:00');
    expect(movedTo(c, '2026-03-02', -24 * 60, ZONE).time).toBe('00:00');
    expect(movedTo(c, '2026-03-02', 24 * 60, ZONE).time).toBe('23:00');
  });
});

describe('the calendar: wall-clock day and time of an instant', () => {
  it('agrees with the core’s zoned day, across daylight saving changes', () => {
    for (const zone of ['America/Mexico_City', 'Europe/Madrid', 'America/New_York', 'UTC']) {
      for (let h = 0; h < 24 * 400; h += 7) {
        const instant = new Date(Date.UTC(2025, 0, 1) + h * 3_600_000 + 17 * 60_000);
        const iso = instant.toISOString();
        expect(dayOf(iso, zone), `${zone} ${iso}`).toBe(localDay(instant, zone));
        const local = new TZDate(instant.getTime(), zone);
        expect(timeOf(iso, zone)).toBe(
          `${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}`,
        );
      }
    }
  });
});
