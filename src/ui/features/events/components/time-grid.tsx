/**
 * The day and week views' time grid (issue 23 point 3): one column per day (Monday first), rows
 * of half hours in the corporate's time zone, appointments drawn from their start to their end,
 * overlapping ones side by side.
 *
 * - The empty slots are an ARIA grid (rows of half hours, a cell per day) with one tab stop:
 *   arrows move between slots (Home/End to the first or last day), Enter or Space, or a click,
 *   opens the booking form at that slot's time.
 * - The appointments are lists laid over the grid, one per day, after it in the tab order:
 *   Enter or a click opens one (its form is the keyboard way to reschedule); dragging one with
 *   the pointer moves it, snapped to 15 minutes, to any day of the grid, and hands the new time
 *   to `onMove`, which asks to confirm it. Alt with the arrows does the same from the keyboard
 *   (15 minutes earlier or later, the day before or after).
 */
import { useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from 'styled-system/css';
import type { CitaView } from '../api/appointments';
import type { DayFields } from '../../../../core/date-format';
import { useDateFormat } from '../../../lib/dates';
import { timeOf } from '../utils/calendar';
import { citaTitle } from '../utils/title';
import {
  SLOT_MINUTES,
  clockOf,
  hourRange,
  minuteOfDay,
  movedTo,
  placeAppointments,
  snap,
} from '../utils/time-grid';

/** Height of a half-hour row, in pixels (the positions below are computed from it). */
const ROW_PX = 28;
const PX_PER_MINUTE = ROW_PX / SLOT_MINUTES;
const HEADER_PX = 44;
const line = css({
  display: 'block',
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
});
const KEY_MOVES: Record<string, { days: number; minutes: number }> = {
  ArrowUp: { days: 0, minutes: -15 },
  ArrowDown: { days: 0, minutes: 15 },
  ArrowLeft: { days: -1, minutes: 0 },
  ArrowRight: { days: 1, minutes: 0 },
};
/** A pointer that moves less than this is a click, not a drag. */
const DRAG_THRESHOLD_PX = 5;

/**
 * A day as a column names it: the short weekday, then the day of the month, in every language
 * ("lun 23", "Mon 23"; Intl's English order was "23 Mon").
 */
export function weekdayAndDay(
  dateLabel: (day: string, fields: DayFields) => string,
  day: string,
): string {
  return `${dateLabel(day, { weekday: 'short' })} ${dateLabel(day, { day: 'numeric' })}`;
}

export interface MoveTarget {
  fechaInicio: string;
  fechaFin: string;
  day: string;
  time: string;
}

interface Drag {
  id: string;
  pointerId: number;
  x0: number;
  y0: number;
  fromColumn: number;
  column: number;
  delta: number;
  dx: number;
  moved: boolean;
}

export function TimeGrid({
  days,
  citas,
  zone,
  today,
  pendingId,
  dateLabel,
  onOpen,
  onSlot,
  onMove,
}: {
  days: string[];
  citas: CitaView[];
  zone: string;
  today: string;
  /** An appointment drawn at a proposed time, waiting for confirmation. */
  pendingId?: string | undefined;
  dateLabel: (day: string, fields: DayFields) => string;
  onOpen: (cita: CitaView) => void;
  onSlot: (day: string, time: string) => void;
  onMove: (cita: CitaView, target: MoveTarget) => void;
}) {
  const { t } = useTranslation('appointments');
  // Hours as the language writes them (issue 19, defect 8); slots keep their `HH:mm` values.
  const { clock } = useDateFormat(zone);
  const placed = useMemo(
    () => placeAppointments(citas, zone).filter((p) => days.includes(p.day)),
    [citas, zone, days],
  );
  const [firstHour, lastHour] = hourRange(placed);
  const firstMinute = firstHour * 60;
  const slots = useMemo(
    () =>
      Array.from(
        { length: ((lastHour - firstHour) * 60) / SLOT_MINUTES },
        (_, i) => firstMinute + i * SLOT_MINUTES,
      ),
    [firstHour, lastHour, firstMinute],
  );
  const todayColumn = days.indexOf(today);
  const [focus, setFocus] = useState<{ column: number; row: number }>({
    column: Math.max(0, todayColumn),
    row: Math.max(0, slots.indexOf(9 * 60)),
  });
  const gridRef = useRef<HTMLDivElement>(null);
  const columnRefs = useRef<(HTMLUListElement | null)[]>([]);
  const [drag, setDrag] = useState<Drag | null>(null);
  const dragRef = useRef<Drag | null>(null);
  const suppressClick = useRef(false);

  // The hours' column fits `10:00 AM` on one line (English's 12-hour clock).
  const columns = `4.5rem repeat(${days.length}, minmax(0, 1fr))`;
  const row = Math.min(focus.row, slots.length - 1);
  const column = Math.min(focus.column, days.length - 1);

  const moveFocus = (next: { column: number; row: number }) => {
    const target = {
      column: Math.max(0, Math.min(days.length - 1, next.column)),
      row: Math.max(0, Math.min(slots.length - 1, next.row)),
    };
    setFocus(target);
    gridRef.current
      ?.querySelector<HTMLElement>(`[data-cell="${target.column}-${target.row}"]`)
      ?.focus();
  };

  const onGridKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, { column: number; row: number }> = {
      ArrowUp: { column, row: row - 1 },
      ArrowDown: { column, row: row + 1 },
      ArrowLeft: { column: column - 1, row },
      ArrowRight: { column: column + 1, row },
      Home: { column: 0, row },
      End: { column: days.length - 1, row },
      PageUp: { column, row: row - 4 },
      PageDown: { column, row: row + 4 },
    };
    const next = moves[e.key];
    if (next) {
      e.preventDefault();
      moveFocus(next);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onSlot(days[column]!, clockOf(slots[row]!));
    }
  };

  /** The day column under a pointer's x (the nearest one when outside the grid). */
  const columnAt = (x: number): number => {
    let best = 0;
    let bestDistance = Infinity;
    columnRefs.current.forEach((el, i) => {
      if (!el) return;
      const r = el.getBoundingClientRect();
      const distance = x < r.left ? r.left - x : x > r.right ? x - r.right : 0;
      if (distance < bestDistance) {
        best = i;
        bestDistance = distance;
      }
    });
    return best;
  };
  const columnLeft = (i: number) => columnRefs.current[i]?.getBoundingClientRect().left ?? 0;

  const pointerDown = (e: PointerEvent<HTMLButtonElement>, id: string, fromColumn: number) => {
    if (e.button !== 0 || !e.isPrimary) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    dragRef.current = {
      id,
      pointerId: e.pointerId,
      x0: e.clientX,
      y0: e.clientY,
      fromColumn,
      column: fromColumn,
      delta: 0,
      dx: 0,
      moved: false,
    };
  };
  const pointerMove = (e: PointerEvent<HTMLButtonElement>) => {
    const current = dragRef.current;
    if (!current || current.pointerId !== e.pointerId) return;
    const dy = e.clientY - current.y0;
    if (!current.moved && Math.hypot(e.clientX - current.x0, dy) < DRAG_THRESHOLD_PX) return;
    const targetColumn = columnAt(e.clientX);
    const next: Drag = {
      ...current,
      moved: true,
      column: targetColumn,
      delta: snap(dy / PX_PER_MINUTE),
      dx: columnLeft(targetColumn) - columnLeft(current.fromColumn),
    };
    dragRef.current = next;
    setDrag(next);
  };
  const pointerEnd = (e: PointerEvent<HTMLButtonElement>, cita: CitaView, cancelled: boolean) => {
    const current = dragRef.current;
    if (!current || current.pointerId !== e.pointerId) return;
    dragRef.current = null;
    setDrag(null);
    if (!current.moved) return;
    suppressClick.current = true;
    if (cancelled) return;
    const target = movedTo(cita, days[current.column]!, current.delta, zone);
    if (target.fechaInicio !== cita.fechaInicio) onMove(cita, target);
  };

  return (
    <div className={css({ position: 'relative', overflowX: 'auto' })}>
      <div className={css({ position: 'relative', minW: days.length > 1 ? '40rem' : 0 })}>
        <div
          ref={gridRef}
          role="grid"
          aria-label={t('grid.label')}
          aria-describedby="time-grid-help"
          onKeyDown={onGridKey}
          className={css({ display: 'flex', flexDirection: 'column' })}
        >
          <div
            role="row"
            className={css({ display: 'grid', alignItems: 'end' })}
            style={{ gridTemplateColumns: columns, height: HEADER_PX }}
          >
            <div role="columnheader" className={css({ fontSize: 'xs', color: 'muted', pb: 1 })}>
              <span className={css({ srOnly: true })}>{t('grid.time')}</span>
            </div>
            {days.map((d) => (
              <div
                key={d}
                role="columnheader"
                className={css({
                  textAlign: 'center',
                  fontSize: 'sm',
                  pb: 1,
                  borderBottomWidth: '2px',
                  borderBottomStyle: 'solid',
                  borderColor: d === today ? 'primary' : 'border',
                  fontWeight: d === today ? 'bold' : 'semibold',
                  color: d === today ? 'primary' : 'text',
                  whiteSpace: 'nowrap',
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                })}
              >
                {weekdayAndDay(dateLabel, d)}
              </div>
            ))}
          </div>
          {slots.map((minute, r) => (
            <div
              key={minute}
              role="row"
              className={css({ display: 'grid' })}
              style={{ gridTemplateColumns: columns, height: ROW_PX }}
            >
              <div
                role="rowheader"
                className={css({
                  fontSize: 'xs',
                  color: 'muted',
                  pr: 2,
                  textAlign: 'right',
                  whiteSpace: 'nowrap',
                  lineHeight: '1',
                  transform: 'translateY(-0.4rem)',
                })}
              >
                {minute % 60 === 0 ? (
                  clock(clockOf(minute))
                ) : (
                  <span className={css({ srOnly: true })}>{clock(clockOf(minute))}</span>
                )}
              </div>
              {days.map((d, c) => (
                <div
                  key={d}
                  role="gridcell"
                  data-cell={`${c}-${r}`}
                  data-testid="time-slot"
                  data-slot={`${d}T${clockOf(minute)}`}
                  tabIndex={c === column && r === row ? 0 : -1}
                  aria-label={t('newAt', {
                    date: dateLabel(d, { weekday: 'long', day: 'numeric', month: 'long' }),
                    time: clock(clockOf(minute)),
                  })}
                  onFocus={() => setFocus({ column: c, row: r })}
                  onClick={() => onSlot(d, clockOf(minute))}
                  className={css({
                    borderTopWidth: '1px',
                    borderLeftWidth: '1px',
                    borderLeftStyle: 'solid',
                    borderColor: 'border',
                    cursor: 'pointer',
                    _hover: { bg: '#f3f6fb' },
                    _focusVisible: {
                      outline: '2px solid',
                      outlineColor: 'primary',
                      outlineOffset: '-2px',
                      bg: '#eef3fa',
                    },
                  })}
                  style={{
                    borderTopStyle: minute % 60 === 0 ? 'solid' : 'dashed',
                    background: d === today ? '#fbfcfe' : undefined,
                  }}
                />
              ))}
            </div>
          ))}
        </div>
        <p id="time-grid-help" className={css({ srOnly: true })}>
          {t('grid.help')}
        </p>
        <div
          className={css({
            position: 'absolute',
            left: 0,
            right: 0,
            bottom: 0,
            display: 'grid',
            pointerEvents: 'none',
          })}
          style={{ top: HEADER_PX, gridTemplateColumns: columns }}
        >
          <div />
          {days.map((d, c) => (
            <ul
              key={d}
              ref={(el) => {
                columnRefs.current[c] = el;
              }}
              aria-label={t('grid.dayAppointments', {
                date: dateLabel(d, { weekday: 'long', day: 'numeric', month: 'long' }),
              })}
              className={css({ position: 'relative', listStyle: 'none', m: 0, p: 0 })}
            >
              {placed
                .filter((p) => p.day === d)
                .map((p) => {
                  const c2 = p.item;
                  const dragging = drag?.id === c2.id && drag.moved ? drag : null;
                  const preview = dragging
                    ? movedTo(c2, days[dragging.column]!, dragging.delta, zone)
                    : null;
                  const top = (p.start - firstMinute) * PX_PER_MINUTE;
                  const height = Math.max(ROW_PX / 2, (p.end - p.start) * PX_PER_MINUTE - 2);
                  const lanePercent = 100 / p.lanes;
                  return (
                    <li
                      key={c2.id}
                      className={css({ position: 'absolute', px: '1px' })}
                      style={{
                        top,
                        height,
                        left: dragging ? 0 : `${p.lane * lanePercent}%`,
                        width: dragging ? '100%' : `${lanePercent}%`,
                        transform: preview
                          ? `translate(${dragging!.dx}px, ${
                              (minuteOfDay(preview.fechaInicio, zone) - p.start) * PX_PER_MINUTE
                            }px)`
                          : undefined,
                        zIndex: dragging ? 3 : 1,
                      }}
                    >
                      <button
                        type="button"
                        data-testid="appointment"
                        data-id={c2.id}
                        aria-describedby="time-grid-move-help"
                        onClick={() => {
                          if (suppressClick.current) {
                            suppressClick.current = false;
                            return;
                          }
                          onOpen(c2);
                        }}
                        onPointerDown={(e) => pointerDown(e, c2.id, c)}
                        onPointerMove={pointerMove}
                        onPointerUp={(e) => pointerEnd(e, c2, false)}
                        onPointerCancel={(e) => pointerEnd(e, c2, true)}
                        onKeyDown={(e) => {
                          // Alt + arrows: the keyboard's drag (15 minutes, or a day).
                          const step = e.altKey ? KEY_MOVES[e.key] : undefined;
                          if (step) {
                            e.preventDefault();
                            const to = Math.max(0, Math.min(days.length - 1, c + step.days));
                            const target = movedTo(c2, days[to]!, step.minutes, zone);
                            if (target.fechaInicio !== c2.fechaInicio) onMove(c2, target);
                            return;
                          }
                          if (e.key === 'Escape' && dragRef.current) {
                            suppressClick.current = dragRef.current.moved;
                            dragRef.current = null;
                            setDrag(null);
                          }
                        }}
                        className={cx(
                          css({
                            pointerEvents: 'auto',
                            display: 'block',
                            w: '100%',
                            h: '100%',
                            textAlign: 'left',
                            px: 1.5,
                            py: 0.5,
                            borderRadius: 'sm',
                            borderLeft: '4px solid',
                            borderLeftColor: 'primary',
                            bg: '#e3ecf8',
                            color: '#14202e',
                            fontSize: 'xs',
                            lineHeight: '1.25',
                            overflow: 'hidden',
                            cursor: 'grab',
                            touchAction: 'none',
                            userSelect: 'none',
                            boxShadow: '0 0 0 1px #ffffff',
                            _focusVisible: {
                              outline: '2px solid',
                              outlineColor: 'primary',
                              outlineOffset: '1px',
                            },
                          }),
                          dragging
                            ? css({ cursor: 'grabbing', boxShadow: 'lg', opacity: 0.92 })
                            : null,
                          pendingId === c2.id
                            ? css({ outline: '2px dashed', outlineColor: 'primary' })
                            : null,
                        )}
                      >
                        <span className={line}>
                          <strong>
                            {clock(preview ? preview.time : timeOf(c2.fechaInicio, zone))}
                            {preview && preview.day !== d
                              ? ` · ${weekdayAndDay(dateLabel, preview.day)}`
                              : ''}
                          </strong>{' '}
                          {c2.nombreLead || citaTitle(t, c2)}
                        </span>
                        {height > ROW_PX * 1.5 ? (
                          <span className={cx(line, css({ color: '#3d4654' }))}>
                            {c2.nombreAsesor} · {c2.nombreShowroom}
                          </span>
                        ) : null}
                      </button>
                    </li>
                  );
                })}
            </ul>
          ))}
        </div>
        <p id="time-grid-move-help" className={css({ srOnly: true })}>
          {t('grid.moveHelp')}
        </p>
      </div>
    </div>
  );
}
