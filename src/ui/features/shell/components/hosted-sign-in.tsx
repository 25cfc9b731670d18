/**
 * The sign-in page's part for a hosted sign-in service (issue 22): which service the e-mail and
 * password go to, and Google's button where the deployment enables it. Loaded lazily, only when
 * the deployment's provider is `firebase`: the built-in /login chunk does not carry it.
 */
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { button } from '../../../components/styles';
import { useSessionActor } from '../../../session';

export default function HostedSignIn({
  google,
  busy,
  redirect,
}: {
  google: boolean;
  busy: boolean;
  redirect: string | undefined;
}) {
  const { t } = useTranslation('shell');
  const session = useSessionActor();
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
            onClick={() =>
              session.send({
                type: 'session.signIn',
                email: '',
                password: '',
                google: true,
                redirect: redirect ?? null,
              })
            }
          >
            {t('login.google')}
          </button>
        </>
      ) : null}
    </div>
  );
}
