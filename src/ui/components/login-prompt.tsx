import { useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { loginPath } from '../../core/navigation';
import { AppLink } from './app-link';
import { LockIcon } from './icons';
import { usePageTitle } from '../lib/page-title';
import { button } from './styles';

/** What the dashboard layout shows instead of its content to someone not signed in. */
export function LoginPrompt() {
  const { t } = useTranslation('shell');
  const href = useRouterState({ select: (s) => s.location.href });
  usePageTitle();
  return (
    <main
      className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', p: 6, bg: 'bg' })}
    >
      <div
        className={css({
          textAlign: 'center',
          maxW: '24rem',
          bg: 'surface',
          p: 8,
          borderRadius: '2xl',
          boxShadow: '0 12px 40px rgba(10,20,35,0.08)',
        })}
      >
        <span
          className={css({
            display: 'inline-grid',
            placeItems: 'center',
            w: 14,
            h: 14,
            borderRadius: 'full',
            bg: 'rgba(31,111,235,0.1)',
            color: 'primary',
            mb: 4,
          })}
        >
          <LockIcon />
        </span>
        <h1
          tabIndex={-1}
          className={css({
            fontSize: 'xl',
            fontWeight: 'semibold',
            mb: 2,
            _focus: { outline: 'none' },
          })}
        >
          {t('session.promptTitle')}
        </h1>
        <p className={css({ color: 'muted', mb: 6 })}>{t('session.promptBody')}</p>
        <AppLink href={loginPath(href)} className={button({ variant: 'primary' })}>
          {t('session.promptAction')}
        </AppLink>
      </div>
    </main>
  );
}
