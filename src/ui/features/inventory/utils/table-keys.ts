/**
 * The units table's virtualisation sizes and its keys (components/units-table.tsx): from
 * {@link VIRTUAL_FROM} rows only the rows in view are rendered, and on a unit's button the arrows,
 * Page Up/Down and Home/End move to another row.
 */

/** Tables with at least this many rows render only the rows in view. */
export const VIRTUAL_FROM = 400;
/** A row's height before it is measured (a unit's button and its status badge). */
export const ROW_ESTIMATE = 41;
/** Rows rendered beyond each edge of the view. */
export const OVERSCAN = 8;
/** Rows Page Up/Page Down move. */
const PAGE_ROWS = 10;

/** The row a key moves to from `index`, of `count`; null for any other key. */
export function rowForKey(key: string, index: number, count: number): number | null {
  const to =
    key === 'ArrowDown'
      ? index + 1
      : key === 'ArrowUp'
        ? index - 1
        : key === 'PageDown'
          ? index + PAGE_ROWS
          : key === 'PageUp'
            ? index - PAGE_ROWS
            : key === 'Home'
              ? 0
              : key === 'End'
                ? count - 1
                : null;
  return to === null ? null : Math.max(0, Math.min(count - 1, to));
}
