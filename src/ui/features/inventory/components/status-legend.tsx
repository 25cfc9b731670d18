/**
 * The legend of the availability grid: every status the corporate (or development) colours,
 * with its swatch and how many units have it (and how many of those match the filters).
 */

import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import type { StatusSummary } from '../../../../core/display-rows';
import type { Unit } from '../../../../core/types';
import { statusMark } from '../../../../core/status';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { textOn } from '../../../theme/contrast';
import { statusCounts } from '../utils/status-counts';
import { StatusMarkIcon } from './status-mark';

/** The status's mark in its swatch, when it has one. */
function Mark({ status }: { status: string }) {
  const mark = statusMark(status);
  return mark ? <StatusMarkIcon mark={mark} /> : null;
}

export function StatusLegend({
  units,
  statuses,
  matching,
}: {
  units: readonly Pick<Unit, 'id' | 'status'>[];
  /** The statuses, labels, colours and totals of the core worker's display rows. */
  statuses: readonly StatusSummary[] | null;
  matching: ReadonlySet<string> | null;
}) {
  const { t } = useTranslation('inventory');
  const corporateLabel = useCorporateLabel();
  const counts = useMemo(
    () => statusCounts(units, statuses, matching),
    [units, statuses, matching],
  );
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
          {/* The swatch carries the status's mark, as its cells do. */}
          <span
            aria-hidden="true"
            className={css({
              display: 'grid',
              placeItems: 'center',
              w: 4,
              h: 4,
              borderRadius: 'sm',
              border: '1px solid rgba(0,0,0,0.15)',
              '& svg': { w: '0.65rem', h: '0.65rem' },
            })}
            style={{ background: c.color, color: textOn(c.color) }}
          >
            <Mark status={c.status} />
          </span>
          <span>{corporateLabel('status', c.label)}</span>
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
