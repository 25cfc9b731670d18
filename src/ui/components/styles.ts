/** Shared Panda recipes of the shell (buttons, cards). */

import { cva } from 'styled-system/css';

export const button = cva({
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: 2,
    minH: 11,
    px: 5,
    borderRadius: 'lg',
    fontWeight: 'semibold',
    fontSize: 'sm',
    cursor: 'pointer',
    textDecoration: 'none',
    transition: 'background 0.15s, box-shadow 0.15s, opacity 0.15s',
    _focusVisible: { outline: '2px solid', outlineColor: 'primary', outlineOffset: '2px' },
    _disabled: { opacity: 0.6, cursor: 'not-allowed' },
  },
  variants: {
    variant: {
      primary: {
        bg: 'primary',
        color: 'primaryText',
        _hover: { boxShadow: '0 6px 16px rgba(10,20,35,0.18)' },
      },
      ghost: {
        bg: 'transparent',
        color: 'text',
        border: '1px solid',
        borderColor: 'border',
        _hover: { bg: 'rgba(0,0,0,0.04)' },
      },
    },
    size: {
      md: {},
      lg: { minH: 12, fontSize: 'md', w: '100%' },
    },
  },
  defaultVariants: { variant: 'primary', size: 'md' },
});

export const card = cva({
  base: {
    bg: 'surface',
    borderRadius: 'xl',
    border: '1px solid',
    borderColor: 'border',
    boxShadow: '0 1px 2px rgba(10,20,35,0.04)',
  },
});
