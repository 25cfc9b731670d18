/**
 * "Turn on push notifications" in the bell's list: the permission is asked only on this click
 * (issue 15); the spec's messages when the browser cannot or the user said no.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { enablePush, pushState, type PushState } from '../../../lib/push';

export function PushToggle() {
  const { t } = useTranslation(['notifications', 'errors']);
  const [state, setState] = useState<PushState | 'failed' | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void pushState()
      .then((s) => live && setState(s))
      .catch(() => live && setState('unsupported'));
    return () => {
      live = false;
    };
  }, []);
  if (state === null) return null;
  const note = css({
    px: 4,
    py: 2,
    fontSize: 'sm',
    color: 'muted',
    borderBottomWidth: '1px',
    borderColor: 'border',
  });
  if (state === 'enabled') return <p className={note}>{t('notifications:push.enabled')}</p>;
  if (state === 'unsupported')
    return (
      <p className={note} role="status">
        {t('errors:pushUnsupported')}
      </p>
    );
  if (state === 'denied')
    return (
      <p className={note} role="status">
        {t('errors:pushDenied')}
      </p>
    );
  return (
    <div className={note}>
      <button
        type="button"
        data-testid="push-enable"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          enablePush()
            .then(setState)
            .catch(() => setState('failed'))
            .finally(() => setBusy(false));
        }}
        className={css({
          minH: 11,
          color: 'primary',
          fontWeight: 'medium',
          cursor: 'pointer',
          _disabled: { color: 'muted' },
          _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
        })}
      >
        {t('notifications:push.enable')}
      </button>
      {state === 'failed' ? <span role="status"> · {t('notifications:push.failed')}</span> : null}
    </div>
  );
}
