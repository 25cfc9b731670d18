/** The people forms' fields (the sign-in page's look). */
import { css } from 'styled-system/css';

export const input = css({
  w: '100%',
  minH: 11,
  px: 3,
  borderRadius: 'lg',
  border: '1px solid',
  borderColor: 'border',
  bg: 'surface',
  color: 'text',
  fontSize: 'md',
  transition: 'border-color 0.15s, box-shadow 0.15s',
  _focus: { outline: 'none', borderColor: 'primary', boxShadow: '0 0 0 3px rgba(31,111,235,0.18)' },
  '&[aria-invalid=true]': { borderColor: 'danger' },
});

export const label = css({ display: 'block', fontSize: 'sm', fontWeight: 'medium', mb: 1.5 });

export const fieldStack = css({ display: 'flex', flexDirection: 'column', gap: 4 });

export const alert = css({
  color: 'danger',
  fontSize: 'sm',
  bg: 'rgba(198,40,40,0.08)',
  px: 3,
  py: 2.5,
  borderRadius: 'lg',
});

export const notice = css({
  fontSize: 'sm',
  bg: 'rgba(31,111,235,0.08)',
  px: 3,
  py: 2.5,
  borderRadius: 'lg',
});

export const linkStyle = css({
  color: 'link',
  fontWeight: 'medium',
  textDecoration: 'underline',
  textUnderlineOffset: '2px',
  _focusVisible: { outline: '2px solid', outlineColor: 'primary', outlineOffset: '2px' },
});
