/**
 * The legend of the availability grid: every status the corporate (or development) colours,
 * with its swatch and how many units have it (and how many of those match the filters).
 */

import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { statusInfo } from '../../../core/status';
import type { StatusColors, Unit } from '../../../core/types';
import { orderedStatuses } from './inventory-data';

export interface StatusCount {
  status: string;
  label: string;
  color: string;
  total: number;
  matching: number;
}

/** Counts per status, in the order of the colour map, then any status it does not know. */
export function statusCounts(
  units: readonly Pick<Unit, 'id' | 'status'>[],
  colors: StatusColors,
  matching: ReadonlySet<string> | null,
): StatusCount[] {
  const counts = new Map<string, StatusCount>();
  for (const status of orderedStatuses(colors)) {
    const info = statusInfo(status, colors);
    counts.set(status, {
      status,
      label: info.disponibilidad,
      color: info.hexColor,
      total: 0,
      matching: 0,
    });
  }
  for (const u of units) {
    const status = u.status ?? '';
    let entry = counts.get(status);
    if (!entry) {
      const info = statusInfo(u.status, colors);
      entry = { status, label: info.disponibilidad, color: info.hexColor, total: 0, matching: 0 };
      counts.set(status, entry);
    }
    entry.total++;
    if (matching === null || matching.has(u.id)) entry.matching++;
  }
  return [...counts.values()];
}

export function StatusLegend({
  units,
  colors,
  matching,
}: {
  units: readonly Pick<Unit, 'id' | 'status'>[];
  colors: StatusColors;
  matching: ReadonlySet<string> | null;
}) {
  const { t } = useTranslation('inventory');
  const counts = useMemo(() => statusCounts(units, colors, matching), [units, colors, matching]);
  return (
    <ul
      aria-label={t('legend.title')}
      className={css({ display: 'flex', flexWrap: 'wrap', gap: 2, listStyle: 'none', p: 0 })}
    >
      {counts.map((c) => (
        <li
          key={c.status}
          data-status={c.status}
          className={css({
            display: 'flex',
            alignItems: 'center',
            gap: 2,
            px: 3,
            py: 1,
            bg: 'surface',
            border: '1px solid token(colors.border)',
            borderRadius: 'full',
            fontSize: 'sm',
          })}
        >
          <span
            aria-hidden="true"
            className={css({
              w: 3,
              h: 3,
              borderRadius: 'full',
              border: '1px solid rgba(0,0,0,0.15)',
            })}
            style={{ background: c.color }}
          />
          <span>{c.label}</span>
          <strong className={css({ fontVariantNumeric: 'tabular-nums' })}>
            {c.matching === c.total
              ? c.total
              : t('legend.countFiltered', { total: c.total, matching: c.matching })}
          </strong>
        </li>
      ))}
    </ul>
  );
}
