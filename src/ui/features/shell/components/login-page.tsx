import { lazy, Suspense, useId, useState, useSyncExternalStore, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { LanguageSwitchButton } from '../../../components/language-switch';
import { LoadingScreen } from '../../../components/loading-screen';
import { PasswordReveal } from '../../../components/password-reveal';
import { CONTENT_ID, SkipLink } from '../../../components/skip-link';
import { button } from '../../../components/styles';
import { setSignInLanguage } from '../../../i18n/sign-in';
import { useAuthProvider } from '../../../lib/auth-provider';
import { errorMessage } from '../../../lib/errors';
import { useDocumentTitle, usePageDescription } from '../../../lib/document-title';
import type { SignInFlow } from '../../../lib/sign-in-flow';

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

/**
 * A broker's registration: the corporate's own page when the sign-in was sent from one
 * (`redirect=/corporativos/{slug}/…`), else the general one.
 */
export function registrationHref(redirect: string | undefined): string {
  const match = /^\/corporativos\/([^/?#]+)/.exec(redirect ?? '');
  // The slug as the path carries it (already encoded).
  return match ? `/registro/${match[1]!}` : '/registro';
}

/** The `redirect` query of the page's address (followed only when a path of the application: core `safeRedirect`). */
export function redirectQuery(search: string): string | undefined {
  return new URLSearchParams(search).get('redirect') ?? undefined;
}

/**
 * The sign-in page (login.html, a page of its own: entries/sign-in.tsx). The flow
 * (lib/sign-in-flow.ts) signs in and sends the user where the rules say, with a full navigation
 * into the application.
 */
export function LoginPage({ flow, redirect }: { flow: SignInFlow; redirect?: string }) {
  const { t } = useTranslation('shell');
  useDocumentTitle(t('pages.login'));
  usePageDescription(t('meta.login'));
  const { phase, error } = useSyncExternalStore(flow.subscribe, flow.getState);
  const busy = phase === 'busy';
  const signedIn = phase === 'leaving';
  const provider = useAuthProvider();
  const [showPassword, setShowPassword] = useState(false);
  const emailId = useId();
  const passwordId = useId();
  const errorId = useId();

  // Signed in: the application is loading at the user's page.
  if (signedIn) return <LoadingScreen fullScreen />;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const field = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' ? value : '';
    };
    flow.signIn({ email: field('email'), password: field('password') });
  };

  return (
    <>
      <SkipLink />
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
          id={CONTENT_ID}
          tabIndex={-1}
          className={css({
            _focus: { outline: 'none' },
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
            <LanguageSwitchButton onSwitch={(lng) => void setSignInLanguage(lng)} />
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
                <HostedSignIn
                  google={provider.firebase.google}
                  busy={busy}
                  onGoogle={() => flow.signIn({ email: '', password: '', google: true })}
                />
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
              <a href="/recuperar" className={authLink}>
                {t('login.forgotPassword')}
              </a>
              <a href={registrationHref(redirect)} className={authLink}>
                {t('login.brokerSignUp')}
              </a>
            </nav>
          </div>
        </main>
      </div>
    </>
  );
}
