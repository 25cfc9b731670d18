/**
 * An accessible modal dialog: labelled by its title, focus moves inside on open, Tab and
 * Shift+Tab stay inside, Escape or the backdrop closes it, and focus returns to the element
 * that opened it.
 */

import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { CloseIcon } from './icons';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Modal({
  title,
  onClose,
  children,
  id,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  id?: string;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const node = panel.current;
    const first = node?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? node)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        close.current();
        return;
      }
      if (e.key !== 'Tab' || !node) return;
      const items = [...node.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => el.offsetParent !== null || el === document.activeElement,
      );
      if (items.length === 0) {
        e.preventDefault();
        return;
      }
      const firstItem = items[0]!;
      const lastItem = items[items.length - 1]!;
      if (
        e.shiftKey &&
        (document.activeElement === firstItem || !node.contains(document.activeElement))
      ) {
        e.preventDefault();
        lastItem.focus();
      } else if (
        !e.shiftKey &&
        (document.activeElement === lastItem || !node.contains(document.activeElement))
      ) {
        e.preventDefault();
        firstItem.focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.body.style.overflow = overflow;
      opener?.focus();
    };
  }, []);

  return createPortal(
    <div
      className={css({
        position: 'fixed',
        inset: 0,
        zIndex: 50,
        display: 'flex',
        alignItems: { base: 'flex-end', sm: 'center' },
        justifyContent: 'center',
        bg: 'rgba(10, 20, 35, 0.45)',
        backdropFilter: 'blur(2px)',
        p: { base: 0, sm: 4 },
      })}
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={panel}
        id={id}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={css({
          bg: 'modal',
          color: 'text',
          width: '100%',
          maxWidth: '30rem',
          maxHeight: '90vh',
          overflowY: 'auto',
          borderRadius: { base: '1rem 1rem 0 0', sm: 'xl' },
          boxShadow: '0 24px 60px rgba(10, 20, 35, 0.25)',
          outline: 'none',
        })}
      >
        <header
          className={css({
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            px: 6,
            pt: 5,
            pb: 3,
          })}
        >
          <h2 id={titleId} className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
            {title}
          </h2>
          <button
            type="button"
            onClick={onClose}
            aria-label={t('close')}
            className={css({
              display: 'grid',
              placeItems: 'center',
              w: 11,
              h: 11,
              borderRadius: 'full',
              color: 'muted',
              cursor: 'pointer',
              _hover: { bg: 'rgba(0,0,0,0.06)', color: 'text' },
              _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
            })}
          >
            <CloseIcon />
          </button>
        </header>
        <div className={css({ px: 6, pb: 6 })}>{children}</div>
      </div>
    </div>,
    document.body,
  );
}
