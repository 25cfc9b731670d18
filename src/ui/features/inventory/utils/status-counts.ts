/**
 * Units per status for the legend: the statuses, labels and colours of the display rows the core
 * worker builds (core/display-rows.ts `summariseStatuses`, in the spec's status order, §4), with
 * how many of `units` have each and how many of those match the filters.
 *
 * The totals are counted here from the same units as the matches (as `summariseStatuses` counts
 * them), not read from the summaries: those answer the units the worker last built rows for, and
 * for a moment after the units change (the rest of the clusters arriving behind the first page,
 * issue 21, or a live change) they are the old set's. Counted against the new set's matches they
 * read "5 de 3", a wider pill that wrapped the legend to a second line and pushed the grid down
 * 39 px until the worker answered (a layout shift).
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
  const totals = new Map<string, number>();
  const matched = new Map<string, number>();
  for (const u of units) {
    const status = u.status ?? '';
    totals.set(status, (totals.get(status) ?? 0) + 1);
    if (matching?.has(u.id)) matched.set(status, (matched.get(status) ?? 0) + 1);
  }
  return statuses.map((s) => {
    const total = totals.get(s.status) ?? 0;
    return {
      status: s.status,
      label: s.label,
      color: s.hexColor,
      total,
      matching: matching === null ? total : (matched.get(s.status) ?? 0),
    };
  });
}
