/** The "show / hide" button inside a password field (the sign-in form, setting a password). */

import { css } from 'styled-system/css';

export function PasswordReveal({
  visible,
  onToggle,
  showLabel,
  hideLabel,
}: {
  visible: boolean;
  onToggle: () => void;
  showLabel: string;
  hideLabel: string;
}) {
  return (
    <button
      type="button"
      onClick={onToggle}
      aria-pressed={visible}
      className={css({
        position: 'absolute',
        right: 1,
        top: 1,
        bottom: 1,
        px: 3,
        fontSize: 'xs',
        fontWeight: 'semibold',
        color: 'link',
        cursor: 'pointer',
        borderRadius: 'md',
        _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
      })}
    >
      {visible ? hideLabel : showLabel}
    </button>
  );
}
