/**
 * A path the application does not know (404): the whole page, or, `embedded` in the dashboard of
 * a corporate the user belongs to, its content area (the navigation stays).
 */

import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { AppLink } from '../../../components/app-link';
import { button } from '../../../components/styles';
import { usePageTitle } from '../../../lib/page-title';

export function NotFoundPage({ embedded = false }: { embedded?: boolean }) {
  const { t } = useTranslation('shell');
  usePageTitle();
  const Heading = embedded ? 'h2' : 'h1';
  const content = (
    <div>
      <p className={css({ fontSize: '5xl', fontWeight: 'bold', color: 'muted' })}>404</p>
      <Heading
        tabIndex={-1}
        className={css({
          fontSize: 'xl',
          fontWeight: 'semibold',
          mb: 2,
          _focus: { outline: 'none' },
        })}
      >
        {t('notFound.title')}
      </Heading>
      <p className={css({ color: 'muted', mb: 6 })}>{t('notFound.body')}</p>
      <AppLink href="/" className={button()}>
        {t('notFound.home')}
      </AppLink>
    </div>
  );
  if (embedded)
    return (
      <section
        className={css({ display: 'grid', placeItems: 'center', py: 16, textAlign: 'center' })}
      >
        {content}
      </section>
    );
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
      {content}
    </main>
  );
}
