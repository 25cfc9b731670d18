/**
 * An e-mail address that may wrap only where a reader expects it to: after the `@` and before
 * each dot (`asesor2@` / `vitrina.demo`, then `vitrina` / `.demo`), never inside a name. Only a
 * single part still wider than its box (a very long name) breaks anywhere, as a last resort
 * (`overflow-wrap: break-word`, which does not shrink a table column to one letter the way
 * `word-break: break-all` or `overflow-wrap: anywhere` do).
 */

import { Fragment, type HTMLAttributes } from 'react';
import { css, cx } from 'styled-system/css';

/** The address cut where it may wrap: after `@`, before each dot of the domain and the name. */
export function emailBreakParts(email: string): string[] {
  const at = email.lastIndexOf('@');
  const local = at >= 0 ? email.slice(0, at + 1) : email;
  const domain = at >= 0 ? email.slice(at + 1) : '';
  const beforeDots = (text: string) => text.split(/(?=\.)/).filter(Boolean);
  return [...beforeDots(local), ...beforeDots(domain)];
}

const wrap = css({ overflowWrap: 'break-word', wordBreak: 'normal' });

export function EmailText({
  email,
  className,
  ...rest
}: { email: string } & Omit<HTMLAttributes<HTMLSpanElement>, 'children'>) {
  return (
    <span {...rest} className={cx(wrap, className)}>
      {emailBreakParts(email).map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
