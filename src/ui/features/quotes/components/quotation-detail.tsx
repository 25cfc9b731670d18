/**
 * A saved quotation opened again from its client (issue 19, defect 2):
 * `/corporativos/{slug}/clientes/{leadId}/cotizaciones/{quotationId}`. Everything it was saved
 * with: its number, the unit, the scheme and its figures, the optionals and the extras, the
 * favourite flag (shown and toggled), a share link and print. The quotation comes from the
 * lead's list (`wsObtenerCotizacionesLocales`), so the lead's scope rules it: a quotation of a
 * lead the user may not see, or of another lead, is not found.
 *
 * Printing prints the quotation alone (the app's bars and menus are left out), on the paper
 * chosen beside the button, with the same closing block as the buyer's shared page.
 */

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { quotationFolio, quotationInCents, type Quotation } from '../../../../core/quotation';
import { AppLink } from '../../../components/app-link';
import { StarIcon } from '../../../components/icons';
import { ShareLinks, useShareQuotation } from '../../../components/quotation-share-links';
import { button, card } from '../../../components/styles';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { formatDate } from '../../../lib/dates';
import { leadPath } from '../../../lib/paths';
import { leadQuotationsQuery, toggleFavourite } from '../api/quotes-data';
import { PaperSizePicker, PrintSetup, QuotationFacts } from './quotation-document';

/**
 * Printed, only the quotation: every element that neither holds it nor is inside it is left
 * out, and the elements holding it lose their layout (sidebar columns, padding, scroll areas).
 */
const PRINT_ONLY_QUOTATION = `
@media print {
  body *:not(:has([data-print-root])):not([data-print-root]):not([data-print-root] *) { display: none !important; }
  body *:has([data-print-root]) { display: block !important; position: static !important; margin: 0 !important; padding: 0 !important; max-width: none !important; width: auto !important; height: auto !important; overflow: visible !important; box-shadow: none !important; border: 0 !important; background: #fff !important; }
  [data-print-root] { box-shadow: none !important; border: 0 !important; padding: 0 !important; }
}
`;

const facts = css({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(9rem, 100%), 1fr))',
  gap: 3,
  fontSize: 'sm',
  '& dt': { color: 'muted', fontSize: 'xs' },
  '& dd': { fontWeight: 'semibold' },
  // Four columns on paper, each free to be narrower than its longest word (an e-mail): that
  // wraps instead of pushing the last column off the page.
  '@media print': {
    gridTemplateColumns: 'repeat(4, minmax(0, 1fr))',
    gap: '6pt',
    overflowWrap: 'anywhere',
    hyphens: 'auto',
  },
});

export function QuotationDetail({ leadId, quotationId }: { leadId: string; quotationId: string }) {
  const { t } = useTranslation('quotes');
  const { corporate } = useCorporateContext();
  const list = useQuery(leadQuotationsQuery(corporate.id, leadId));
  const back = (
    <AppLink
      href={leadPath(corporate.slug, leadId)}
      className={css({ color: 'link', fontWeight: 'semibold', fontSize: 'sm' })}
    >
      {t('detail.back')}
    </AppLink>
  );
  if (list.isPending) return <p aria-busy="true">{t('page.loading')}</p>;
  const quotation = list.data?.find((q) => q.id === quotationId);
  if (!quotation) {
    return (
      <div className={css({ display: 'flex', flexDirection: 'column', gap: 3 })}>
        <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{t('detail.notFound')}</h2>
        {back}
      </div>
    );
  }
  return <Detail quotation={quotation} back={back} />;
}

function Detail({ quotation: q, back }: { quotation: Quotation; back: React.ReactNode }) {
  const { t, i18n } = useTranslation('quotes');
  const { corporate } = useCorporateContext();
  const queryClient = useQueryClient();
  const folio = quotationFolio(q.numero);
  const favourite = useMutation({
    mutationFn: () => toggleFavourite(corporate.id, q.id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['leads', corporate.id, 'quotations'] });
      void queryClient.invalidateQueries({ queryKey: ['api', 'wsObtenerCotizacionesLocales'] });
    },
  });
  const esFavorito = favourite.data ? favourite.data.esFavorito : q.esFavorito;
  const share = useShareQuotation(corporate.id, q.id);
  const lang = i18n.language;
  return (
    <div
      className={css({
        maxW: '56rem',
        mx: 'auto',
        display: 'flex',
        flexDirection: 'column',
        gap: 4,
        // Its width is the column's, whatever its content (a phone's column does not grow).
        contain: 'inline-size',
        '@media print': { contain: 'none' },
      })}
    >
      <style>{PRINT_ONLY_QUOTATION}</style>
      <PrintSetup folio={folio} />
      <div className={css({ '@media print': { display: 'none' } })}>{back}</div>
      <article
        data-print-root
        data-testid="quotation-detail"
        className={`${card()} ${css({ p: { base: 4, md: 6 }, display: 'flex', flexDirection: 'column', gap: 5, minW: 0 })}`}
      >
        <header
          className={css({ display: 'flex', flexWrap: 'wrap', gap: 3, alignItems: 'flex-start' })}
        >
          <div className={css({ flex: '1 1 16rem', minW: 0 })}>
            <p className={css({ fontSize: 'sm', color: 'muted' })}>{corporate.nombre}</p>
            <h2
              tabIndex={-1}
              className={css({ fontSize: 'xl', fontWeight: 'bold', _focus: { outline: 'none' } })}
            >
              {t('public.title', { unit: q.nombreUnidad, development: q.nombreDesarrolloInteres })}
            </h2>
            {folio ? (
              <p data-testid="quotation-folio" className={css({ fontSize: 'sm' })}>
                {t('document.folio', { folio })}
              </p>
            ) : null}
          </div>
          <div
            className={css({
              display: 'flex',
              flexWrap: 'wrap',
              gap: 2,
              alignItems: 'center',
              '@media print': { display: 'none' },
            })}
          >
            <button
              type="button"
              className={`${button({ variant: 'ghost' })} ${css({ '& svg': { w: 5, h: 5 }, '&[aria-pressed="true"] svg': { color: 'highlight' } })}`}
              aria-pressed={esFavorito}
              // aria-disabled, not disabled: a disabled button drops the keyboard focus to the page.
              aria-disabled={favourite.isPending}
              onClick={() => {
                if (!favourite.isPending) favourite.mutate();
              }}
            >
              <StarIcon filled={esFavorito} />
              {t('save.favourite')}
            </button>
            <button
              type="button"
              className={button({ variant: 'ghost' })}
              // aria-disabled, not disabled: a disabled button drops the keyboard focus to the page.
              aria-disabled={share.isPending}
              onClick={() => {
                if (!share.isPending) share.mutate();
              }}
            >
              {t('save.share')}
            </button>
            <PaperSizePicker />
            <button type="button" className={button()} onClick={() => window.print()}>
              {t('public.print')}
            </button>
          </div>
        </header>
        <dl className={facts}>
          <div>
            <dt>{t('public.client')}</dt>
            <dd>{q.nombreCliente}</dd>
          </div>
          <div>
            <dt>{t('public.adviser')}</dt>
            <dd>{q.nombreAsesor}</dd>
          </div>
          <div>
            <dt>{t('public.date')}</dt>
            <dd>{formatDate(q.fechaAlta, lang, q.zonaHoraria)}</dd>
          </div>
          <div>
            <dt>{t('page.cluster')}</dt>
            <dd>{q.nombreCluster || '—'}</dd>
          </div>
          <div>
            <dt>{t('page.prototype')}</dt>
            <dd>{q.nombrePrototipe || '—'}</dd>
          </div>
          <div>
            <dt>{t('page.currency')}</dt>
            <dd>{q.divisa.codigo}</dd>
          </div>
          {esFavorito ? (
            <div>
              <dt>{t('detail.flag')}</dt>
              <dd data-testid="quotation-favourite">{t('save.favourite')}</dd>
            </div>
          ) : null}
        </dl>
        <QuotationFacts quotation={{ ...q, conCentavos: quotationInCents(q) }} issuer={corporate} />
      </article>
      {share.data ? (
        <p
          className={css({
            fontSize: 'sm',
            wordBreak: 'break-all',
            '@media print': { display: 'none' },
          })}
        >
          <a
            href={share.data}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="share-link"
            className={css({ color: 'link', fontWeight: 'semibold' })}
          >
            {t('save.openShared')}
          </a>
        </p>
      ) : null}
      <div className={css({ '@media print': { display: 'none' } })}>
        <ShareLinks corporateId={corporate.id} quotationId={q.id} timeZone={q.zonaHoraria} />
      </div>
    </div>
  );
}
