/**
 * The parts of a quotation that make it a document a buyer can file (issue 19), shared by the
 * buyer's shared page and the adviser's quotation detail: the paper-size picker used before
 * printing, the page set-up, and the closing block (the developer's legal name and address,
 * the signature lines of the buyer and the adviser with the date, and the disclaimer) that
 * prints whole on the last page, never leaving the disclaimer alone on a page of its own.
 */

import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import type { QuoteFigures } from '../../../../core/quotation';
import { PAPER_SIZES, printPageCss, usePaperSize } from '../../../lib/paper-size';
import { QuoteFiguresView, type FigureAddition } from './quote-figures';

/** The page set-up for printing: the paper chosen, page x / y, the folio. */
export function PrintSetup({ folio }: { folio: string | null }) {
  const { t } = useTranslation('quotes');
  const [paper] = usePaperSize();
  return <style>{printPageCss(paper, { pageLabel: t('document.page'), folio })}</style>;
}

/** "Paper: Letter / A4", beside the print button; not printed. */
export function PaperSizePicker({ tone = 'light' }: { tone?: 'light' | 'dark' }) {
  const { t } = useTranslation('quotes');
  const id = useId();
  const [paper, setPaper] = usePaperSize();
  return (
    <div
      className={css({
        display: 'flex',
        alignItems: 'center',
        gap: 2,
        fontSize: 'sm',
        '@media print': { display: 'none' },
      })}
    >
      <label htmlFor={id} className={css({ whiteSpace: 'nowrap' })}>
        {t('document.paper')}
      </label>
      <select
        id={id}
        data-testid="paper-size"
        value={paper}
        onChange={(e) => setPaper(e.target.value === 'a4' ? 'a4' : 'letter')}
        className={css({
          h: 9,
          px: 2,
          borderRadius: 'md',
          border: '1px solid',
          borderColor: tone === 'dark' ? 'white' : 'border',
          bg: 'white',
          color: '#14202e',
        })}
      >
        {PAPER_SIZES.map((p) => (
          <option key={p} value={p}>
            {t(`document.paperSize.${p}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

const signatureLine = css({
  overflowWrap: 'anywhere',
  borderTop: '1px solid #374151',
  pt: 1,
  mt: 10,
  fontSize: 'xs',
  '@media print': { mt: '28pt', fontSize: '8pt' },
});

/** What a saved quotation's document shows of it (the adviser's detail and the buyer's page). */
export interface DocumentQuotation {
  figuras: QuoteFigures;
  divisa: { codigo: string };
  adicionales: readonly FigureAddition[];
  zonaHoraria?: string | undefined;
  esquemasPago: { nombre: string };
  nombreCliente: string;
  nombreAsesor: string;
  /** Every amount to the cent (core `quotationInCents`). */
  conCentavos: boolean;
}

/**
 * A saved quotation's figures and the document's closing, issued by the developer's legal name
 * and address (`issuer`): the same on the adviser's detail and on the buyer's page.
 */
export function QuotationFacts({
  quotation: q,
  issuer,
  headingLevel,
}: {
  quotation: DocumentQuotation;
  issuer: { razonSocial?: string | null | undefined; domicilio?: string | null | undefined };
  /** The figures' section headings: 2 where the page's h1 comes right before. */
  headingLevel?: 2 | 3;
}) {
  return (
    <>
      <QuoteFiguresView
        figures={q.figuras}
        currency={q.divisa.codigo}
        additions={q.adicionales}
        timeZone={q.zonaHoraria}
        schemeName={q.esquemasPago.nombre}
        toTheCent={q.conCentavos}
        {...(headingLevel === undefined ? {} : { headingLevel })}
      />
      <QuotationClosing
        buyer={q.nombreCliente}
        adviser={q.nombreAsesor}
        razonSocial={issuer.razonSocial}
        domicilio={issuer.domicilio}
      />
    </>
  );
}

/**
 * The document's closing block: who issues it (legal name and address), the signatures and the
 * disclaimer. The signature lines are only printed; on screen the block shows the issuer and the
 * disclaimer.
 */
export function QuotationClosing({
  buyer,
  adviser,
  razonSocial,
  domicilio,
}: {
  buyer: string;
  adviser: string;
  razonSocial: string | null | undefined;
  domicilio: string | null | undefined;
}) {
  const { t } = useTranslation('quotes');
  return (
    <footer
      data-testid="quotation-closing"
      className={css({
        display: 'flex',
        flexDirection: 'column',
        gap: 3,
        '@media print': { breakInside: 'avoid', breakBefore: 'avoid', gap: '6pt' },
      })}
    >
      <div
        data-testid="quotation-signatures"
        className={css({
          display: 'none',
          '@media print': {
            display: 'grid',
            // Never wider than the paper: a long name wraps inside its line.
            gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr) minmax(0, 0.6fr)',
            columnGap: '18pt',
          },
        })}
      >
        <p className={signatureLine}>
          {t('document.signBuyer')}
          <br />
          {buyer}
        </p>
        <p className={signatureLine}>
          {t('document.signAdviser')}
          <br />
          {adviser}
        </p>
        <p className={signatureLine}>{t('document.signDate')}</p>
      </div>
      {razonSocial || domicilio ? (
        <p data-testid="quotation-issuer" className={css({ fontSize: 'xs' })}>
          {t('document.issuedBy')} <strong>{razonSocial}</strong>
          {razonSocial && domicilio ? ' · ' : null}
          {domicilio}
        </p>
      ) : null}
      <p className={css({ fontSize: 'xs', color: 'muted' })}>{t('public.disclaimer')}</p>
    </footer>
  );
}
