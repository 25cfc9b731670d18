import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { LoadingScreen } from '../../../components/loading-screen';
import { button } from '../../../components/styles';
import { errorMessage } from '../../../lib/errors';
import { usePageDescription, usePageTitle } from '../../../lib/page-title';
import { LanguageSwitch } from '../../../lib/visitor-language';
import { useSession, useSessionActor } from '../../../session';
import { PasswordReveal } from '../../../components/password-reveal';
import { useAuthProvider } from '../../../lib/auth-provider';

/** Firebase's part of the page (issue 22): its own chunk, loaded only under `firebase`. */
const HostedSignIn = lazy(() => import('./hosted-sign-in'));

const input = css({
  w: '100%',
  minH: 12,
  px: 4,
  borderRadius: 'lg',
  border: '1px solid',
  borderColor: 'border',
  bg: 'surface',
  fontSize: 'md',
  transition: 'border-color 0.15s, box-shadow 0.15s',
  _focus: { outline: 'none', borderColor: 'primary', boxShadow: '0 0 0 3px rgba(31,111,235,0.18)' },
  '&[aria-invalid=true]': { borderColor: 'danger' },
});
const label = css({ display: 'block', fontSize: 'sm', fontWeight: 'medium', mb: 1.5 });
const authLink = css({
  color: 'link',
  fontWeight: 'medium',
  textDecoration: 'underline',
  textUnderlineOffset: '2px',
  _focusVisible: { outline: '2px solid', outlineColor: 'primary', outlineOffset: '2px' },
});

/** The corporate a sign-in was sent from (`redirect=/corporativos/{slug}/…`): its registration page. */
function registrationSlug(redirect: string | undefined): string | null {
  const match = /^\/corporativos\/([^/?#]+)/.exec(redirect ?? '');
  return match ? decodeURIComponent(match[1]!) : null;
}

/** Sign in (empty layout). The session machine signs in and sends the user where the rules say. */
export function LoginPage({ redirect }: { redirect?: string }) {
  const { t } = useTranslation('shell');
  usePageTitle();
  usePageDescription(t('meta.login'));
  const session = useSessionActor();
  const busy = useSession((s) => s.hasTag('busy'));
  const signedIn = useSession((s) => s.hasTag('signedIn'));
  const error = useSession((s) => s.context.error);
  const provider = useAuthProvider();
  const [showPassword, setShowPassword] = useState(false);
  const emailId = useId();
  const passwordId = useId();
  const errorId = useId();

  if (signedIn) return <LoadingScreen fullScreen />;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const field = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' ? value : '';
    };
    session.send({
      type: 'session.signIn',
      email: field('email'),
      password: field('password'),
      redirect: redirect ?? null,
    });
  };

  return (
    <div
      className={css({
        minH: '100dvh',
        display: 'grid',
        gridTemplateColumns: { base: '1fr', lg: '1.1fr 1fr' },
        bg: 'bg',
      })}
    >
      <section
        aria-hidden="true"
        className={css({
          display: { base: 'none', lg: 'flex' },
          flexDirection: 'column',
          justifyContent: 'space-between',
          p: 12,
          color: 'white',
          bgGradient: 'to-br',
          gradientFrom: '#14213d',
          gradientTo: '#1f6feb',
          position: 'relative',
          overflow: 'hidden',
        })}
      >
        <span className={css({ fontSize: '2xl', fontWeight: 'bold', letterSpacing: '-0.02em' })}>
          Vitrina
        </span>
        <div>
          <p
            className={css({
              fontSize: '4xl',
              fontWeight: 'bold',
              lineHeight: 1.15,
              maxW: '28rem',
              letterSpacing: '-0.02em',
            })}
          >
            {t('login.tagline')}
          </p>
          <p className={css({ mt: 4, opacity: 0.8, maxW: '26rem' })}>{t('login.subtitle')}</p>
        </div>
        <svg viewBox="0 0 400 160" className={css({ w: '100%', opacity: 0.25 })}>
          {[0, 1, 2, 3, 4, 5, 6, 7].map((i) => (
            <rect
              key={i}
              x={i * 50 + 5}
              y={160 - (40 + ((i * 37) % 110))}
              width="40"
              height={40 + ((i * 37) % 110)}
              rx="3"
              fill="white"
            />
          ))}
        </svg>
      </section>
      <main
        className={css({
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          p: { base: 6, md: 10 },
          position: 'relative',
        })}
      >
        {/* The sign-in page's EN/ES switch (issue 19); the choice is remembered on the device. */}
        <div
          className={css({
            position: 'absolute',
            top: { base: 4, md: 6 },
            right: { base: 4, md: 6 },
          })}
        >
          <LanguageSwitch />
        </div>
        <div className={css({ w: '100%', maxW: '24rem' })}>
          <p
            className={css({
              display: { base: 'block', lg: 'none' },
              fontSize: '2xl',
              fontWeight: 'bold',
              color: 'primary',
              mb: 8,
            })}
          >
            Vitrina
          </p>
          <h1
            tabIndex={-1}
            className={css({
              fontSize: '2xl',
              fontWeight: 'bold',
              mb: 2,
              letterSpacing: '-0.01em',
              _focus: { outline: 'none' },
            })}
          >
            {t('login.title')}
          </h1>
          <p className={css({ color: 'muted', mb: 8, display: { lg: 'none' } })}>
            {t('login.subtitle')}
          </p>
          <form
            onSubmit={submit}
            noValidate
            aria-describedby={error ? errorId : undefined}
            className={css({ display: 'flex', flexDirection: 'column', gap: 5, mt: { lg: 8 } })}
          >
            <div>
              <label htmlFor={emailId} className={label}>
                {t('login.email')}
              </label>
              <input
                id={emailId}
                name="email"
                type="email"
                autoComplete="username"
                required
                autoFocus
                aria-invalid={Boolean(error)}
                className={input}
              />
            </div>
            <div>
              <label htmlFor={passwordId} className={label}>
                {t('login.password')}
              </label>
              <div className={css({ position: 'relative' })}>
                <input
                  id={passwordId}
                  name="password"
                  type={showPassword ? 'text' : 'password'}
                  autoComplete="current-password"
                  required
                  aria-invalid={Boolean(error)}
                  className={css({ w: '100%', pr: 24 }) + ' ' + input}
                />
                <PasswordReveal
                  visible={showPassword}
                  onToggle={() => setShowPassword((v) => !v)}
                  showLabel={t('login.showPassword')}
                  hideLabel={t('login.hidePassword')}
                />
              </div>
            </div>
            {error ? (
              <p
                id={errorId}
                role="alert"
                className={css({
                  color: 'danger',
                  fontSize: 'sm',
                  bg: 'rgba(198,40,40,0.08)',
                  px: 3,
                  py: 2.5,
                  borderRadius: 'lg',
                })}
              >
                {errorMessage(error)}
              </p>
            ) : null}
            <button type="submit" disabled={busy} className={button({ size: 'lg' })}>
              {busy ? t('login.submitting') : t('login.submit')}
            </button>
          </form>
          {provider?.proveedor === 'firebase' ? (
            <Suspense fallback={null}>
              <HostedSignIn google={provider.firebase.google} busy={busy} redirect={redirect} />
            </Suspense>
          ) : null}
          {/* Password recovery and a broker's registration (issue 16). */}
          <nav
            aria-label={t('login.title')}
            className={css({
              mt: 6,
              display: 'flex',
              flexDirection: 'column',
              gap: 3,
              fontSize: 'sm',
            })}
          >
            <Link to="/recuperar" className={authLink}>
              {t('login.forgotPassword')}
            </Link>
            {registrationSlug(redirect) ? (
              <Link
                to="/registro/$corporativo"
                params={{ corporativo: registrationSlug(redirect)! }}
                className={authLink}
              >
                {t('login.brokerSignUp')}
              </Link>
            ) : (
              <Link to="/registro" className={authLink}>
                {t('login.brokerSignUp')}
              </Link>
            )}
          </nav>
        </div>
      </main>
    </div>
  );
}
