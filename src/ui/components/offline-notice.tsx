/**
 * What the app shows while the session machine is offline (the server could not be reached
 * while looking for the user): the app shell came from the service worker's cache, but nothing
 * the user may see can be read. The session is kept; it is looked for again on its own, when the
 * browser says it is back online, or with the button.
 */

import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { button } from './styles';
import { useSession, useSessionActor } from '../session';

export function OfflineNotice() {
  const { t } = useTranslation('shell');
  const actor = useSessionActor();
  const offline = useSession((s) => s.hasTag('offline'));
  if (!offline) return null;
  return (
    <div
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="offline-title"
      aria-describedby="offline-body"
      data-testid="offline-notice"
      className={css({
        position: 'fixed',
        inset: 0,
        zIndex: 70,
        display: 'grid',
        placeItems: 'center',
        p: 6,
        bg: 'bg',
      })}
    >
      <div
        className={css({
          textAlign: 'center',
          maxW: '26rem',
          bg: 'surface',
          p: 8,
          borderRadius: '2xl',
          boxShadow: '0 12px 40px rgba(10,20,35,0.08)',
        })}
      >
        <h1 id="offline-title" className={css({ fontSize: 'xl', fontWeight: 'semibold', mb: 2 })}>
          {t('session.offlineTitle')}
        </h1>
        <p id="offline-body" className={css({ color: 'text', mb: 6 })}>
          {t('session.offlineBody')}
        </p>
        <button
          type="button"
          autoFocus
          className={button()}
          onClick={() => actor.send({ type: 'session.retry' })}
        >
          {t('session.offlineRetry')}
        </button>
      </div>
    </div>
  );
}
