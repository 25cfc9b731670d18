import type { ReactNode } from 'react';
import { css } from 'styled-system/css';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle, usePageDescription } from '../lib/page-title';
import { LanguageSwitch, useVisitorLanguage } from '../lib/visitor-language';
import { SkipLink } from './skip-link';

/**
 * The top bar of the signed-out pages (public availability, public simulator): the corporate's
 * logo and name, the page title, and the page's own links and pickers on the right. On a
 * bilingual corporate the page follows the visitor's language and offers the EN/ES switch
 * (lib/visitor-language.tsx).
 */
export function PublicPageHeader({
  logoUrl,
  corporateName,
  title,
  multiIdioma,
  children,
}: {
  /** Resolved image URL, or null when the corporate has no logo. */
  logoUrl: string | null;
  corporateName: string;
  title: string;
  /** The corporate's `multiIdioma` (undefined while it loads). */
  multiIdioma?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation('shell');
  useVisitorLanguage(multiIdioma);
  // The heading already names the page ("Disponibilidad de Torre Alameda").
  useDocumentTitle(title, corporateName);
  usePageDescription(t('meta.publicPage', { page: title, corporate: corporateName }));
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
      <SkipLink />
      {logoUrl ? (
        <img
          src={logoUrl}
          alt={corporateName}
          width={40}
          height={40}
          className={css({ h: 10, w: 10, objectFit: 'contain' })}
        />
      ) : null}
      {/* The title keeps its own width (it wraps only where the row ends): the page's links and
          pickers go to the next row rather than squeeze it — and the server's first paint of
          the page (index.html, #first-paint) wraps it the same way. */}
      <div
        className={css({
          flex: '1 0 auto',
          minW: '12rem',
          maxW: logoUrl ? 'calc(100% - 3.25rem)' : '100%',
        })}
      >
        <p className={css({ fontSize: 'xs', color: 'muted' })}>{corporateName}</p>
        <h1
          tabIndex={-1}
          className={css({ fontSize: 'lg', fontWeight: 'bold', _focus: { outline: 'none' } })}
        >
          {title}
        </h1>
      </div>
      {children}
      {multiIdioma ? <LanguageSwitch /> : null}
    </header>
  );
}
