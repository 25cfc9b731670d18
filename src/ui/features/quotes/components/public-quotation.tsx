/**
 * The buyer's quotation behind a share link (`/public/cotizacion/$token`; issue 7): read-only,
 * with the corporate's logo and colours, and a print stylesheet so the browser prints it as a
 * clean document (no buttons, no backgrounds but the corporate's band): its number, the
 * adviser's phone and e-mail, the paper the user picks (Letter or A4), page x / y, and the
 * closing block with the developer's legal data and the signature lines (quotation-document.tsx). An
 * expired link, a link the adviser revoked and a modified or unknown one each get a clear
 * message.
 */

import { useDeferredValue, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { formatArea } from '../../../../core/area';
import { ApiRequestError } from '../../../lib/api';
import { useDisplaySettings } from '../../../lib/display-settings';
import { corporateThemeStyle } from '../../../theme/corporate-theme';
import { button } from '../../../components/styles';
import { mediaUrl } from '../../../lib/catalogue';
import { formatDate } from '../../../lib/dates';
import { publicQuotationQuery } from '../api/quotes-data';
import { usePageDescription, usePageTitle } from '../../../lib/page-title';
import { quotationFolio } from '../../../../core/quotation';
import { PaperSizePicker, PrintSetup, QuotationFacts } from './quotation-document';
import { placeValue } from '../../../lib/unit-place';
import { unitPlace } from '../../../../core/site-plan';

/** A line of the adviser's contact under their name: smaller, not bold, links in the link colour. */
const contactLine = css({
  display: 'block',
  fontWeight: 'normal',
  fontSize: 'xs',
  // 24 px tall at least: a target a finger can hit (WCAG 2.5.8).
  '& a': {
    color: 'link',
    textDecoration: 'underline',
    display: 'inline-block',
    minH: '24px',
    lineHeight: '24px',
  },
  '@media print': { '& a': { color: 'inherit', textDecoration: 'none' } },
});

function Message({ title, body }: { title: string; body: string }) {
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
      <div role="alert" className={css({ maxW: '30rem' })}>
        <h1
          tabIndex={-1}
          className={css({
            fontSize: '2xl',
            fontWeight: 'bold',
            mb: 2,
            _focus: { outline: 'none' },
          })}
        >
          {title}
        </h1>
        <p className={css({ color: 'muted' })}>{body}</p>
      </div>
    </main>
  );
}

export function PublicQuotationPage({ token }: { token: string }) {
  const { t, i18n } = useTranslation('quotes');
  const { areaUnit } = useDisplaySettings();
  const query = useQuery(publicQuotationQuery(token));
  // The figures and the closing (the schedule's table, every amount formatted) render in the
  // background once the quotation is here (a transition React slices): the heading and the
  // unit's data paint first, and no long task renders the whole document (Lighthouse, issue 19).
  // They come below the rest, so nothing already painted moves.
  const deferredFigures = useDeferredValue(query.data !== undefined, false);
  // A buyer who prints at once still gets the whole document: the print starts only once this
  // render, figures included, is on the page.
  const [printing, setPrinting] = useState(false);
  useEffect(() => {
    const before = () => flushSync(() => setPrinting(true));
    window.addEventListener('beforeprint', before);
    return () => window.removeEventListener('beforeprint', before);
  }, []);
  const figuresShown = deferredFigures || (printing && query.data !== undefined);
  usePageTitle([
    query.data?.cotizacion.nombreUnidad,
    query.data?.cotizacion.nombreDesarrolloInteres,
    query.data?.corporativo.nombre,
  ]);
  usePageDescription(
    query.data
      ? t('shell:meta.sharedQuotation', {
          unit: query.data.cotizacion.nombreUnidad,
          development: query.data.cotizacion.nombreDesarrolloInteres,
          corporate: query.data.corporativo.nombre,
        })
      : null,
  );

  if (query.isPending) {
    return (
      <main
        className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', color: 'muted' })}
      >
        <p role="status">{t('public.loading')}</p>
      </main>
    );
  }
  if (query.isError) {
    const status = query.error instanceof ApiRequestError ? query.error.status : 0;
    const code = query.error instanceof ApiRequestError ? query.error.errorCode : null;
    if (status === 410 && code === 'SHARE_REVOKED')
      return <Message title={t('public.revokedTitle')} body={t('public.revoked')} />;
    if (status === 410)
      return <Message title={t('public.expiredTitle')} body={t('public.expired')} />;
    if (status === 404 || status === 400)
      return <Message title={t('public.invalidTitle')} body={t('public.invalid')} />;
    return <Message title={t('public.failedTitle')} body={t('public.failed')} />;
  }

  const { cotizacion: q, corporativo, expiraEn } = query.data;
  const logo = mediaUrl(corporativo.imagen.imagenLogo);
  const lang = i18n.language;
  const c = q.unidad.caracteristicas;
  // A house's street by its number: the shared quotation does not carry its stage's street names.
  const place = unitPlace(q.unidad);
  const folio = quotationFolio(q.numero);
  return (
    <div
      style={corporateThemeStyle(corporativo.colores)}
      className={css({
        minH: '100dvh',
        bg: 'bg',
        color: 'text',
        py: { base: 0, md: 8 },
        '@media print': { bg: 'white', py: 0 },
      })}
    >
      <PrintSetup folio={folio} />
      <article
        data-testid="public-quotation"
        className={css({
          maxW: '52rem',
          mx: 'auto',
          bg: 'surface',
          borderRadius: { base: 0, md: 'xl' },
          boxShadow: { base: 'none', md: '0 12px 32px rgba(16,24,40,0.08)' },
          overflow: 'hidden',
          '@media print': { maxW: 'none', boxShadow: 'none', borderRadius: 0 },
        })}
      >
        <header
          className={css({
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'center',
            gap: 4,
            px: 6,
            py: 4,
            bg: 'sidebar',
            color: 'white',
            printColorAdjust: 'exact',
            '@media print': { px: '10pt', py: '8pt' },
          })}
        >
          {logo ? (
            <img
              src={logo}
              alt={t('public.logo', { name: corporativo.nombre })}
              className={css({
                h: 12,
                w: 12,
                objectFit: 'contain',
                bg: 'white',
                borderRadius: 'md',
                p: 1,
              })}
            />
          ) : null}
          <div className={css({ flex: 1 })}>
            <p className={css({ fontSize: 'sm', opacity: 0.85 })}>{corporativo.nombre}</p>
            <h1
              tabIndex={-1}
              className={css({ fontSize: 'xl', fontWeight: 'bold', _focus: { outline: 'none' } })}
            >
              {t('public.title', { unit: q.nombreUnidad, development: q.nombreDesarrolloInteres })}
            </h1>
            {folio ? (
              <p data-testid="quotation-folio" className={css({ fontSize: 'sm', opacity: 0.9 })}>
                {t('document.folio', { folio })}
              </p>
            ) : null}
          </div>
          <PaperSizePicker tone="dark" />
          <button
            type="button"
            onClick={() => window.print()}
            // Merged with the recipe, not appended: two atomic `bg` classes left the recipe's
            // blue under the dark text (3.35:1).
            className={css(button.raw(), {
              bg: 'white',
              color: 'text',
              '@media print': { display: 'none' },
            })}
          >
            {t('public.print')}
          </button>
        </header>

        <div
          className={css({
            p: 6,
            display: 'flex',
            flexDirection: 'column',
            gap: 5,
            '@media print': { p: '10pt', gap: '8pt' },
          })}
        >
          <dl
            className={css({
              display: 'grid',
              gridTemplateColumns: 'repeat(auto-fit, minmax(10rem, 1fr))',
              gap: 3,
              fontSize: 'sm',
              '& dt': { color: 'muted', fontSize: 'xs' },
              '& dd': { fontWeight: 'semibold' },
              // Four columns on paper, each free to be narrower than its longest word (an
              // e-mail): that wraps instead of pushing the last column off the page.
              '@media print': {
                gridTemplateColumns: 'repeat(4, minmax(0, 1fr))',
                gap: '6pt',
                overflowWrap: 'anywhere',
                hyphens: 'auto',
              },
            })}
          >
            <div>
              <dt>{t('public.client')}</dt>
              <dd>{q.nombreCliente}</dd>
            </div>
            <div>
              <dt>{t('public.adviser')}</dt>
              <dd>
                {q.nombreAsesor}
                {/* The adviser's work contact under the name, so the buyer can call or write. */}
                {q.asesor?.telefono ? (
                  <span className={contactLine}>
                    <span className={css({ srOnly: true })}>{t('document.adviserPhone')}: </span>
                    <a href={`tel:${q.asesor.telefono.replace(/[^+\d]/g, '')}`}>
                      {q.asesor.telefono}
                    </a>
                  </span>
                ) : null}
                {q.asesor?.email ? (
                  <span className={contactLine}>
                    <span className={css({ srOnly: true })}>{t('document.adviserEmail')}: </span>
                    <a href={`mailto:${q.asesor.email}`}>{q.asesor.email}</a>
                  </span>
                ) : null}
              </dd>
            </div>
            <div>
              <dt>{t('public.date')}</dt>
              <dd>{formatDate(q.fechaAlta, lang, q.zonaHoraria)}</dd>
            </div>
            <div>
              <dt>{t('public.validUntil')}</dt>
              <dd>{formatDate(expiraEn, lang, q.zonaHoraria)}</dd>
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
              <dt>{t(place.kind === 'street' ? 'page.street' : 'page.level')}</dt>
              <dd>{placeValue(place)}</dd>
            </div>
            <div>
              <dt>{t('page.area')}</dt>
              <dd>{formatArea(q.unidad.metrajes.areaTotal ?? 0, areaUnit)}</dd>
            </div>
            <div>
              <dt>{t('page.bedrooms')}</dt>
              <dd>{c.recamaras}</dd>
            </div>
            <div>
              <dt>{t('public.bathrooms')}</dt>
              <dd>{c.banios + c.baniosMedios * 0.5}</dd>
            </div>
            <div>
              <dt>{t('public.parking')}</dt>
              <dd>{c.cajones}</dd>
            </div>
            {q.fechaEntrega ? (
              <div>
                <dt>{t('public.delivery')}</dt>
                <dd>{formatDate(q.fechaEntrega, lang, q.zonaHoraria)}</dd>
              </div>
            ) : null}
          </dl>

          {figuresShown ? (
            <QuotationFacts quotation={q} issuer={corporativo} headingLevel={2} />
          ) : null}
        </div>
      </article>
    </div>
  );
}
