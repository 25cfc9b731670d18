/** The frame of the signed-out people pages: the brand, a card with the page's title, a way back. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '@tanstack/react-router';
import { css } from 'styled-system/css';
import { card } from '../../../components/styles';
import { linkStyle } from './form-styles';

export function AuthCard({
  title,
  children,
  wide = false,
}: {
  title: string;
  children: ReactNode;
  wide?: boolean;
}) {
  const { t } = useTranslation('people');
  return (
    <div
      className={css({
        minH: '100dvh',
        bg: 'bg',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        px: { base: 4, md: 6 },
        py: { base: 8, md: 12 },
      })}
    >
      <p className={css({ fontSize: '2xl', fontWeight: 'bold', color: 'primary', mb: 6 })}>
        Vitrina
      </p>
      <main
        className={`${card()} ${css({ w: '100%', maxW: wide ? '36rem' : '28rem', p: { base: 5, md: 8 } })}`}
      >
        <h1
          tabIndex={-1}
          className={css({
            fontSize: '2xl',
            fontWeight: 'bold',
            mb: 3,
            letterSpacing: '-0.01em',
            _focus: { outline: 'none' },
          })}
        >
          {title}
        </h1>
        {children}
      </main>
      <p className={css({ mt: 6, fontSize: 'sm' })}>
        <Link to="/login" className={linkStyle}>
          {t('auth.backToLogin')}
        </Link>
      </p>
    </div>
  );
}
