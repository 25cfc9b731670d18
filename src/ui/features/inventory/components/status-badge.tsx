import { css } from 'styled-system/css';
import { textOn } from '../../../theme/contrast';

/** A unit status as a pill in its colour, with the text colour that reads best on it. */
export function StatusBadge({ color, label }: { color: string; label: string }) {
  return (
    <span
      className={css({
        px: 2,
        py: 0.5,
        borderRadius: 'full',
        fontSize: 'xs',
        fontWeight: 'semibold',
      })}
      style={{ background: color, color: textOn(color) }}
    >
      {label}
    </span>
  );
}
