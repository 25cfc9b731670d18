/**
 * A full-screen gallery viewer: ← and → move between items, Escape closes, focus stays in the
 * dialog and returns to the thumbnail that opened it.
 */

import { useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';

export interface LightboxItem {
  src: string;
  title: string;
}

const navButton = css({
  position: 'absolute',
  top: '50%',
  transform: 'translateY(-50%)',
  w: 12,
  h: 12,
  borderRadius: 'full',
  bg: 'rgba(255,255,255,0.15)',
  color: 'white',
  fontSize: '2xl',
  cursor: 'pointer',
  _hover: { bg: 'rgba(255,255,255,0.3)' },
  _focusVisible: { outline: '2px solid white' },
});

export function Lightbox({
  items,
  index,
  onIndex,
  onClose,
}: {
  items: readonly LightboxItem[];
  index: number;
  onIndex: (index: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('inventory');
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const count = items.length;
  const item = items[index];
  const prev = () => onIndex((index - 1 + count) % count);
  const next = () => onIndex((index + 1) % count);
  const handlers = useRef({ prev, next, onClose });
  handlers.current = { prev, next, onClose };

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowLeft') {
        e.preventDefault();
        handlers.current.prev();
      } else if (e.key === 'ArrowRight') {
        e.preventDefault();
        handlers.current.next();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        handlers.current.onClose();
      } else if (e.key === 'Tab') {
        const focusables = dialog.current?.querySelectorAll<HTMLElement>('button');
        if (!focusables || focusables.length === 0) return;
        const first = focusables[0]!;
        const last = focusables[focusables.length - 1]!;
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      opener?.focus();
    };
  }, []);

  if (!item) return null;
  return createPortal(
    <div
      ref={dialog}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      tabIndex={-1}
      className={css({
        position: 'fixed',
        inset: 0,
        zIndex: 60,
        bg: 'rgba(8,12,20,0.92)',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        p: { base: 4, md: 12 },
        outline: 'none',
      })}
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <img
        src={item.src}
        alt={item.title}
        className={css({
          maxW: '100%',
          maxH: '78vh',
          objectFit: 'contain',
          borderRadius: 'lg',
          boxShadow: '0 20px 60px rgba(0,0,0,0.5)',
        })}
      />
      <p id={titleId} className={css({ color: 'white', mt: 4, fontWeight: 'semibold' })}>
        {item.title}{' '}
        <span className={css({ color: 'rgba(255,255,255,0.6)', fontWeight: 'normal' })}>
          {t('gallery.position', { index: index + 1, count })}
        </span>
      </p>
      {count > 1 ? (
        <>
          <button
            type="button"
            className={navButton}
            style={{ left: '1rem' }}
            aria-label={t('gallery.previous')}
            onClick={prev}
          >
            ‹
          </button>
          <button
            type="button"
            className={navButton}
            style={{ right: '1rem' }}
            aria-label={t('gallery.next')}
            onClick={next}
          >
            ›
          </button>
        </>
      ) : null}
      <button
        type="button"
        className={css({
          position: 'absolute',
          top: 4,
          right: 4,
          w: 11,
          h: 11,
          borderRadius: 'full',
          bg: 'rgba(255,255,255,0.15)',
          color: 'white',
          cursor: 'pointer',
          _focusVisible: { outline: '2px solid white' },
        })}
        aria-label={t('gallery.close')}
        onClick={onClose}
      >
        ✕
      </button>
    </div>,
    document.body,
  );
}
