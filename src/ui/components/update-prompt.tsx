import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { applyUpdate, dismissUpdate, useUpdateAvailable } from '../lib/service-worker';
import { button } from './styles';

/**
 * "A new version is available" (issue 15): shown when a newly deployed service worker waits
 * (lib/service-worker.ts). The live region is always in the page, so screen readers announce
 * the message politely when it appears; nothing takes the focus. "Reload" lets the new worker
 * take over and reloads; "Later" (or Escape inside it) hides it until the next load.
 */
export function UpdatePrompt() {
  const { t } = useTranslation('shell');
  const available = useUpdateAvailable();
  const [reloading, setReloading] = useState(false);
  return (
    <div
      role="status"
      aria-live="polite"
      // Always there (a live region announces what is put in it later), but not a page: the
      // document's splash stays up beside it (index.html).
      data-overlay
      className={css({
        position: 'fixed',
        zIndex: 59,
        insetX: 4,
        // Phones: under the top bar, clear of the bottom navigation and the floating buttons.
        top: { base: '72px', sm: 'auto' },
        bottom: { base: 'auto', sm: '88px', lg: 6 },
        display: 'flex',
        justifyContent: { base: 'stretch', sm: 'center' },
        pointerEvents: 'none',
      })}
    >
      {available ? (
        <div
          data-testid="update-prompt"
          onKeyDown={(e) => {
            if (e.key === 'Escape') dismissUpdate();
          }}
          className={css({
            pointerEvents: 'auto',
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'center',
            gap: 3,
            w: { base: '100%', sm: 'auto' },
            maxW: { sm: '34rem' },
            px: 4,
            py: 3,
            bg: 'surface',
            color: 'text',
            borderRadius: 'lg',
            border: '1px solid',
            borderColor: 'border',
            boxShadow: '0 12px 32px rgba(10,20,35,0.25)',
          })}
        >
          <p className={css({ flex: '1 1 12rem', fontSize: 'sm', lineHeight: 1.45 })}>
            {t('update.message')}
          </p>
          <div className={css({ display: 'flex', gap: 2 })}>
            <button
              type="button"
              className={button({ variant: 'ghost' })}
              onClick={() => dismissUpdate()}
            >
              {t('update.later')}
            </button>
            <button
              type="button"
              className={button()}
              disabled={reloading}
              onClick={() => {
                setReloading(true);
                void applyUpdate();
              }}
            >
              {reloading ? t('update.reloading') : t('update.reload')}
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
