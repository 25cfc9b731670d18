import { Outlet, createRootRoute } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { AppLink } from '../components/app-link';
import { Toaster } from '../components/toaster';
import { button } from '../components/styles';
import { useSession } from '../session';

function LogoutOverlay() {
  const { t } = useTranslation('shell');
  const loggingOut = useSession((s) => s.hasTag('logoutLoading'));
  if (!loggingOut) return null;
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="logout-loading"
      className={css({
        position: 'fixed',
        inset: 0,
        zIndex: 70,
        display: 'grid',
        placeItems: 'center',
        bg: 'rgba(255,255,255,0.75)',
        backdropFilter: 'blur(2px)',
        fontWeight: 'medium',
        color: 'text',
      })}
    >
      {t('session.loggingOut')}
    </div>
  );
}

function NotFound() {
  const { t } = useTranslation('shell');
  return (
    <main
      className={css({
        minH: '100dvh',
        display: 'grid',
        placeItems: 'center',
        p: 6,
        textAlign: 'center',
        bg: 'bg',
      })}
    >
      <div>
        <p className={css({ fontSize: '5xl', fontWeight: 'bold', color: 'border' })}>404</p>
        <h1 className={css({ fontSize: 'xl', fontWeight: 'semibold', mb: 2 })}>
          {t('notFound.title')}
        </h1>
        <p className={css({ color: 'muted', mb: 6 })}>{t('notFound.body')}</p>
        <AppLink href="/" className={button()}>
          {t('notFound.home')}
        </AppLink>
      </div>
    </main>
  );
}

export const Route = createRootRoute({
  component: () => (
    <>
      <Outlet />
      <Toaster />
      <LogoutOverlay />
    </>
  ),
  notFoundComponent: NotFound,
});
