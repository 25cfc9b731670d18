/** Units per status for the legend, in the spec's status order (§4). */

import { statusInfo } from '../../../../core/status';
import type { StatusColors, Unit } from '../../../../core/types';
import { orderedStatuses } from '../../../lib/catalogue';

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
