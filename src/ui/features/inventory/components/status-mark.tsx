/**
 * The glyph of a status mark (core `statusMark`): a bookmark for Reservado, a tick for Vendido, a
 * barred circle for No Disponible. Drawn in the text colour of the status colour (`currentColor`),
 * the same in a grid cell and in the legend.
 */

import type { StatusMark } from '../../../../core/status';

export function StatusMarkIcon({ mark, className }: { mark: StatusMark; className?: string }) {
  return (
    <svg
      viewBox="0 0 12 12"
      aria-hidden="true"
      focusable="false"
      data-mark={mark}
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {mark === 'reserved' ? (
        <path d="M3 1.5h6v9L6 8.2 3 10.5z" fill="currentColor" stroke="none" />
      ) : mark === 'sold' ? (
        <path d="M2 6.5l2.6 2.6L10 3.2" />
      ) : (
        <>
          <circle cx="6" cy="6" r="4.2" />
          <path d="M3.1 8.9l5.8-5.8" />
        </>
      )}
    </svg>
  );
}
