import type { ReactNode } from 'react';
import { css } from 'styled-system/css';

/**
 * The top bar of the signed-out pages (public availability, public simulator): the corporate's
 * logo and name, the page title, and the page's own links and pickers on the right.
 */
export function PublicPageHeader({
  logoUrl,
  corporateName,
  title,
  children,
}: {
  /** Resolved image URL, or null when the corporate has no logo. */
  logoUrl: string | null;
  corporateName: string;
  title: string;
  children?: ReactNode;
}) {
  return (
    <header
      className={css({
        display: 'flex',
        alignItems: 'center',
        gap: 3,
        flexWrap: 'wrap',
        px: { base: 4, md: 6 },
        py: 3,
        bg: 'topbar',
        borderBottom: '1px solid token(colors.border)',
      })}
    >
      {logoUrl ? (
        <img
          src={logoUrl}
          alt={corporateName}
          className={css({ h: 10, w: 10, objectFit: 'contain' })}
        />
      ) : null}
      <div className={css({ flex: 1, minW: '12rem' })}>
        <p className={css({ fontSize: 'xs', color: 'muted' })}>{corporateName}</p>
        <h1 className={css({ fontSize: 'lg', fontWeight: 'bold' })}>{title}</h1>
      </div>
      {children}
    </header>
  );
}
