/**
 * The lead's quotations (`wsObtenerCotizacionesLocales`), newest first; the last one is marked.
 * Amounts are cents of each quotation's own currency, as it was quoted. Each quotation opens
 * its links for the client: make a new one, copy or open an active one, revoke one.
 */

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { formatMoney } from '../../../../core/money';
import { quotationFolio, quotationInCents, type Quotation } from '../../../../core/quotation';
import { AppLink } from '../../../components/app-link';
import { leadPath } from '../../../lib/paths';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { formatDate } from '../../../lib/dates';
import { ShareLinks, useShareQuotation } from '../../../components/quotation-share-links';
import { button } from '../../../components/styles';
import { useLeadQuotations } from '../api/lead-queries';
import { sectionCard, sectionTitle } from '../utils/lead-styles';

export function LeadQuotations({ corporateId, leadId }: { corporateId: string; leadId: string }) {
  const { t, i18n } = useTranslation('leads');
  const { t: tq } = useTranslation('quotes');
  const corporateSlug = useCorporateContext().corporate.slug;
  const quotations = useLeadQuotations(corporateId, leadId);
  const list = quotations.data ?? [];
  return (
    <section aria-labelledby="lead-quotations-title" className={sectionCard}>
      <h3 id="lead-quotations-title" className={sectionTitle}>
        {t('quotations.title')}
      </h3>
      {quotations.isPending ? (
        <p className={css({ color: 'muted' })}>{t('quotations.loading')}</p>
      ) : quotations.isError ? (
        <p className={css({ color: 'muted' })}>{t('quotations.loadFailed')}</p>
      ) : list.length === 0 ? (
        <p className={css({ color: 'muted' })}>{t('quotations.none')}</p>
      ) : (
        <ol
          className={css({ listStyle: 'none', display: 'flex', flexDirection: 'column', gap: 2 })}
        >
          {list.map((q, i) => (
            <li
              key={q.id}
              data-testid="lead-quotation"
              aria-current={i === 0 ? 'true' : undefined}
              className={css({
                display: 'grid',
                gridTemplateColumns: '1fr auto',
                gap: 2,
                p: 3,
                borderRadius: 'lg',
                border: '1px solid',
                borderColor: 'border',
                '&[aria-current="true"]': { borderColor: 'primary', bg: 'rgba(31,111,235,0.06)' },
              })}
            >
              <div>
                <p className={css({ fontWeight: 'semibold' })}>
                  {/* The quotation opens in full: scheme, extras, figures, favourite, share, print. */}
                  <AppLink
                    href={`${leadPath(corporateSlug, leadId)}/cotizaciones/${encodeURIComponent(q.id)}`}
                    aria-label={tq('detail.open', {
                      name: quotationFolio(q.numero) ?? q.nombreUnidad,
                    })}
                    data-testid="open-quotation"
                    className={css({ color: 'link', textDecoration: 'underline' })}
                  >
                    {quotationFolio(q.numero) ? `${quotationFolio(q.numero)} · ` : ''}
                    {q.nombreDesarrolloInteres} · {q.nombreCluster} · {q.nombreUnidad}
                  </AppLink>
                  {q.esFavorito ? (
                    <span
                      data-testid="quotation-favourite"
                      className={css({ ml: 2, fontSize: 'xs', color: 'muted' })}
                    >
                      ★ {tq('detail.favourite')}
                    </span>
                  ) : null}
                </p>
                <p className={css({ fontSize: 'sm', color: 'muted' })}>
                  {q.nombrePrototipe} · {formatDate(q.fechaAlta, i18n.language, q.zonaHoraria)}
                  {i === 0 ? ` · ${t('quotations.latest')}` : ''}
                </p>
              </div>
              <p className={css({ fontWeight: 'bold', whiteSpace: 'nowrap' })}>
                {formatMoney(q.figuras.finalPrice, { decimals: quotationInCents(q) ? 2 : 0 })}{' '}
                {q.divisa.codigo}
              </p>
              <QuotationLinks corporateId={corporateId} quotation={q} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The links for the client of one quotation, behind a disclosure (loaded when opened). */
function QuotationLinks({ corporateId, quotation }: { corporateId: string; quotation: Quotation }) {
  const { t } = useTranslation('quotes');
  const [open, setOpen] = useState(false);
  const share = useShareQuotation(corporateId, quotation.id);
  return (
    <details
      className={css({ gridColumn: '1 / -1', fontSize: 'sm' })}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary className={css({ cursor: 'pointer', color: 'link', fontWeight: 'semibold' })}>
        {t('shares.manage')}
      </summary>
      {open ? (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: 3, mt: 3 })}>
          <button
            type="button"
            className={css(button.raw({ variant: 'ghost' }), { alignSelf: 'flex-start' })}
            disabled={share.isPending}
            onClick={() => share.mutate()}
          >
            {share.isPending ? t('shares.creating') : t('shares.create')}
          </button>
          <ShareLinks
            corporateId={corporateId}
            quotationId={quotation.id}
            // The corporate's zone, as the quotation and its printed page show it (issue 19).
            timeZone={quotation.zonaHoraria}
          />
        </div>
      ) : null}
    </details>
  );
}
