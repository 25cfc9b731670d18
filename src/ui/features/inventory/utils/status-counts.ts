/**
 * Units per status for the legend: the statuses, labels, colours and totals of the display rows
 * the core worker builds (core/display-rows.ts `summariseStatuses`, in the spec's status order,
 * §4), with how many of each match the filters.
 */

import type { StatusSummary } from '../../../../core/display-rows';
import type { Unit } from '../../../../core/types';

export interface StatusCount {
  status: string;
  label: string;
  color: string;
  total: number;
  matching: number;
}

/** Counts per status, in the summaries' order; none until the summaries arrive. */
export function statusCounts(
  units: readonly Pick<Unit, 'id' | 'status'>[],
  statuses: readonly StatusSummary[] | null,
  matching: ReadonlySet<string> | null,
): StatusCount[] {
  if (statuses === null) return [];
  const matched = new Map<string, number>();
  if (matching !== null) {
    for (const u of units) {
      if (!matching.has(u.id)) continue;
      const status = u.status ?? '';
      matched.set(status, (matched.get(status) ?? 0) + 1);
    }
  }
  return statuses.map((s) => ({
    status: s.status,
    label: s.label,
    color: s.hexColor,
    total: s.total,
    matching: matching === null ? s.total : (matched.get(s.status) ?? 0),
  }));
}
