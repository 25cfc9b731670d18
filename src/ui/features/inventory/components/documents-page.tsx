import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { card } from '../../../components/styles';
import { useDevelopmentContext } from '../../../layouts/development-context';
import { documentQuery } from '../../../lib/catalogue';
import { MediaUpload } from './media-upload';

export function DocumentsPage() {
  const { t } = useTranslation('inventory');
  const { corporate, development } = useDevelopmentContext();
  const docs = useQueries({
    queries: development.documentos.map((d) => documentQuery(corporate.id, development.id, d.id)),
  });
  return (
    <>
      <MediaUpload tipo="documento" />
      <section aria-labelledby="documents-title" className={`${card()} ${css({ p: 5 })}`}>
        <h2 id="documents-title" className={css({ fontSize: 'xl', fontWeight: 'bold', mb: 4 })}>
          {t('pages.documentos')}
        </h2>
        {development.documentos.length === 0 ? (
          <p className={css({ color: 'muted' })}>{t('documents.none')}</p>
        ) : (
          <ul className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}>
            {development.documentos.map((d, i) => {
              const info = docs[i]?.data;
              const failed = docs[i]?.isError;
              return (
                <li
                  key={d.id}
                  className={css({
                    display: 'flex',
                    alignItems: 'center',
                    gap: 3,
                    p: 3,
                    borderRadius: 'lg',
                    border: '1px solid token(colors.border)',
                  })}
                >
                  <span
                    aria-hidden="true"
                    className={css({
                      display: 'grid',
                      placeItems: 'center',
                      w: 10,
                      h: 12,
                      borderRadius: 'md',
                      bg: '#fdecea',
                      color: '#c62828',
                      fontSize: 'xs',
                      fontWeight: 'bold',
                    })}
                  >
                    {info?.contentType === 'application/pdf' ? 'PDF' : 'DOC'}
                  </span>
                  <div className={css({ flex: 1 })}>
                    <p className={css({ fontWeight: 'semibold' })}>{d.titulo}</p>
                    <p className={css({ fontSize: 'sm', color: failed ? 'danger' : 'muted' })}>
                      {failed ? t('documents.failed') : (info?.nombre ?? t('availability.loading'))}
                    </p>
                  </div>
                  {info ? (
                    <a
                      href={info.url}
                      target="_blank"
                      rel="noopener"
                      className={css({ color: 'link', fontWeight: 'semibold' })}
                    >
                      {t('documents.open', { title: d.titulo })}
                    </a>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </>
  );
}
