import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from 'styled-system/css';
import { dismissToast, getToasts, subscribeToasts } from '../lib/toast';

/** Renders the toasts of `lib/toast` (auto-close after 5000 ms there). */
export function Toaster() {
  const { t } = useTranslation();
  const toasts = useSyncExternalStore(subscribeToasts, getToasts);
  return (
    // Always there, but not a page: the document's splash stays up beside it (index.html).
    <div
      data-overlay
      className={css({
        position: 'fixed',
        zIndex: 60,
        insetX: 4,
        bottom: { base: '88px', lg: 6 },
        display: 'flex',
        flexDirection: 'column',
        alignItems: { base: 'stretch', sm: 'flex-end' },
        gap: 2,
        pointerEvents: 'none',
      })}
    >
      {toasts.map((toast) => (
        <div
          key={toast.id}
          role={toast.kind === 'error' ? 'alert' : 'status'}
          className={cx(
            css({
              pointerEvents: 'auto',
              display: 'flex',
              alignItems: 'flex-start',
              gap: 3,
              maxW: '26rem',
              px: 4,
              py: 3,
              borderRadius: 'lg',
              color: 'white',
              fontSize: 'sm',
              boxShadow: '0 12px 32px rgba(10,20,35,0.25)',
              animation: 'fadeIn 0.15s ease-out',
            }),
            toast.kind === 'error'
              ? css({ bg: 'danger' })
              : toast.kind === 'success'
                ? css({ bg: 'success' })
                : css({ bg: '#1d2433' }),
          )}
        >
          <span className={css({ flex: 1, lineHeight: 1.45 })}>{toast.message}</span>
          <button
            type="button"
            aria-label={t('close')}
            onClick={() => dismissToast(toast.id)}
            className={css({
              cursor: 'pointer',
              opacity: 0.85,
              _hover: { opacity: 1 },
              '& svg': { w: 4, h: 4 },
            })}
          >
            <ToastCloseIcon />
          </button>
        </div>
      ))}
    </div>
  );
}

/**
 * The toaster is on every page from the first paint, so its one icon is drawn here rather than
 * pulling the whole icon module into the initial bundle.
 */
function ToastCloseIcon() {
  return (
    <svg
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M6 6l12 12M18 6 6 18" />
    </svg>
  );
}
