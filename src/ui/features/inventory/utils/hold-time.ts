/**
 * A unit's hold ("apartado") in words: the time left until it ends by itself, and the status
 * as the grid and the table name it ("Apartado, quedan 1 h 20 min").
 */
import type { TFunction } from 'i18next';
import type { Unit } from '../../../../core/types';

/** Whole hours and minutes left until `hastaEn` (minutes rounded up; zero once it has passed). */
export function holdTimeLeft(hastaEn: string, nowMs: number): { hours: number; minutes: number } {
  const left = Math.max(0, Math.ceil((Date.parse(hastaEn) - nowMs) / 60_000));
  return { hours: Math.floor(left / 60), minutes: left % 60 };
}

/** "quedan 1 h 20 min" / "1 h 20 min left"; "por liberarse" once the time has passed. */
export function holdLeftText(t: TFunction, hastaEn: string, nowMs: number): string {
  const { hours, minutes } = holdTimeLeft(hastaEn, nowMs);
  if (hours === 0 && minutes === 0) return t('inventory:hold.ending');
  const time =
    hours > 0
      ? t('inventory:hold.hoursMinutes', { hours, minutes })
      : t('inventory:hold.minutes', { minutes });
  return t('inventory:hold.left', { time });
}

/** The status as screen readers hear it: with the time left when the unit is held. */
export function statusWithHold(
  t: TFunction,
  unit: Pick<Unit, 'apartado'>,
  status: string,
  nowMs: number,
): string {
  return unit.apartado
    ? t('inventory:hold.statusWithLeft', {
        status,
        left: holdLeftText(t, unit.apartado.hastaEn, nowMs),
      })
    : status;
}
