/**
 * The sign-in page's part for a hosted sign-in service (issue 22): which service the e-mail and
 * password go to, and Google's button where the deployment enables it. Loaded lazily, only when
 * the deployment's provider is `firebase`: the built-in /login chunk does not carry it.
 */
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { button } from '../../../components/styles';

export default function HostedSignIn({
  google,
  busy,
  onGoogle,
}: {
  google: boolean;
  busy: boolean;
  /** Signs in with Google (the page's flow, which then leaves for the user's page). */
  onGoogle: () => void;
}) {
  const { t } = useTranslation('shell');
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: 4, mt: 5 })}>
      <p data-testid="hosted-sign-in" className={css({ color: 'muted', fontSize: 'sm' })}>
        {t('login.hostedNote')}
      </p>
      {google ? (
        <>
          <p
            aria-hidden="true"
            className={css({ textAlign: 'center', color: 'muted', fontSize: 'sm' })}
          >
            {t('login.orDivider')}
          </p>
          <button
            type="button"
            disabled={busy}
            className={button({ variant: 'ghost', size: 'lg' })}
            onClick={onGoogle}
          >
            {t('login.google')}
          </button>
        </>
      ) : null}
    </div>
  );
}
