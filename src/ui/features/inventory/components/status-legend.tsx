/**
 * The legend of the availability grid: every status the corporate (or development) colours,
 * with its swatch and how many units have it (and how many of those match the filters).
 */

import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import type { StatusColors, Unit } from '../../../../core/types';
import { statusCounts } from '../utils/status-counts';

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
