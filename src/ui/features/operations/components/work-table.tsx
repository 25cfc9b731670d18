/**
 * One table of the operations page: a heading that names the table, column headers, and an
 * empty state in place of the rows. Wide screens get a table; below 1024 px each row stacks into
 * a card whose cells carry their column's name (`data-label`), so nothing scrolls sideways on a
 * phone. The markup stays a table (named by its heading, th scope=col, td) either way.
 */
import { useId, type ReactNode } from 'react';
import { css, cx } from 'styled-system/css';

export interface Column<Row> {
  id: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** Extra classes for the column's cells (e.g. a width or wrapping rule). */
  className?: string;
}

const table = css({
  w: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th, & td': { textAlign: 'left', verticalAlign: 'top', px: 3, py: 2.5 },
  '& thead th': {
    fontSize: 'xs',
    fontWeight: 'semibold',
    color: 'muted',
    textTransform: 'uppercase',
    letterSpacing: '0.04em',
    borderBottomWidth: '1px',
    borderColor: 'border',
    whiteSpace: 'nowrap',
  },
  '& tbody tr + tr td': { borderTopWidth: '1px', borderColor: 'border' },
  lgDown: {
    '& thead': { srOnly: true },
    '& tbody tr': {
      display: 'block',
      py: 2,
      borderTopWidth: '1px',
      borderColor: 'border',
    },
    '& tbody tr + tr td': { borderTopWidth: 0 },
    '& tbody td': {
      display: 'grid',
      gridTemplateColumns: '8.5rem minmax(0, 1fr)',
      gap: 3,
      py: 1,
    },
    '& tbody td::before': {
      content: 'attr(data-label)',
      fontSize: 'xs',
      fontWeight: 'semibold',
      color: 'muted',
      textTransform: 'uppercase',
      letterSpacing: '0.04em',
      pt: '2px',
    },
  },
});

export function WorkTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  footer,
  testId,
}: {
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  empty: string;
  /** Under the table (e.g. "showing 50 of 1,203"). */
  footer?: ReactNode;
  testId?: string;
}) {
  const headingId = useId();
  return (
    <div data-testid={testId} className={css({ mt: 5 })}>
      <h4 id={headingId} className={css({ fontWeight: 'semibold', fontSize: 'sm', mb: 2 })}>
        {caption}
      </h4>
      {rows.length === 0 ? (
        <p
          className={css({
            color: 'muted',
            fontSize: 'sm',
            p: 4,
            borderRadius: 'lg',
            bg: 'bg',
            textAlign: 'center',
          })}
        >
          {empty}
        </p>
      ) : (
        <table aria-labelledby={headingId} className={table}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.id} scope="col">
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((c) => (
                  <td key={c.id} data-label={c.header} className={cx(c.className)}>
                    {/* One child: the stacked layout's grid puts it beside its label. */}
                    <div>{c.cell(row)}</div>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {footer ? <p className={css({ color: 'muted', fontSize: 'xs', mt: 2 })}>{footer}</p> : null}
    </div>
  );
}
