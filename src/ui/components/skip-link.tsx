import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';

/** The id of the element a skip link jumps to: the page's `main` (tabIndex -1). */
export const CONTENT_ID = 'content';

/**
 * "Skip to content" (WCAG 2.4.1): the first focusable element of a layout, shown only while it
 * has focus; it moves focus to the main content past the navigation.
 */
export function SkipLink() {
  const { t } = useTranslation('shell');
  return (
    <a
      href={`#${CONTENT_ID}`}
      onClick={(e) => {
        const target = document.getElementById(CONTENT_ID);
        if (!target) return;
        // Focus and scroll without writing a hash into the router's URL.
        e.preventDefault();
        target.focus({ preventScroll: true });
        target.scrollIntoView({ block: 'start' });
      }}
      className={css({
        position: 'fixed',
        top: 2,
        left: 2,
        zIndex: 1000,
        px: 4,
        py: 2,
        borderRadius: 'lg',
        bg: 'surface',
        color: 'text',
        fontWeight: 'semibold',
        boxShadow: '0 6px 16px rgba(10,20,35,0.18)',
        transform: 'translateY(-200%)',
        _focus: { transform: 'none', outline: '2px solid', outlineColor: 'primary' },
      })}
    >
      {t('skipToContent')}
    </a>
  );
}
