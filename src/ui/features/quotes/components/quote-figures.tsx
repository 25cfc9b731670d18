/**
 * The figures of a quotation (spec §9 labels): list price, discount, optionals, final price,
 * each part of the payment scheme with its share and amount, the totals row verified against
 * the final price, and the monthly instalments with their dates. Used by the adviser's page,
 * the buyer's shared page (printed) and the visitors' simulator.
 *
 * Amounts are cents shown in whole units (spec §9), rounded by the core's `displayedQuote` so
 * each breakdown adds up to the total printed beside it; a quotation with a price entered with
 * cents (core `quotationInCents`) shows every amount exact to the cent instead.
 */

import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import type { Money } from '../../../../core/brands';
import { displayedQuote, SCHEME_PART_KEYS } from '../../../../core/pricing';
import type { QuoteFigures } from '../../../../core/quotation';
import { formatCents, formatPercent } from '../utils/quote-format';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { formatDate } from '../../../lib/dates';

export interface FigureAddition {
  tipo: 'opcional' | 'extra';
  nombre: string;
  monto: number;
}

const table = css({
  w: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th, & td': {
    textAlign: 'left',
    py: 2,
    px: 2,
    borderBottom: '1px solid token(colors.border)',
  },
  '& th': { fontWeight: 'semibold', color: 'muted', fontSize: 'xs', textTransform: 'uppercase' },
  '& td[data-num], & th[data-num]': {
    textAlign: 'right',
    fontVariantNumeric: 'tabular-nums',
    // An amount stays on one line: on a phone the concept column wraps, not `$… MXN`.
    whiteSpace: 'nowrap',
  },
  '& tr[data-zero="true"] td': { color: 'muted' },
  '& tfoot td': { fontWeight: 'bold', borderBottom: 'none' },
  '@media print': { fontSize: '9pt', '& th, & td': { py: '3pt', px: '4pt' } },
});

/**
 * A figures table's own scroll area: on a narrow phone (320 px) the table scrolls sideways inside
 * it instead of the whole page (WCAG 1.4.10 reflow). While it actually scrolls it is a labelled
 * region in the tab order, so a keyboard user can scroll it too.
 */
function TableScroll({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setScrolls(el.scrollWidth > el.clientWidth + 1);
    check();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(check);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={ref}
      data-testid="figures-scroll"
      role={scrolls ? 'region' : undefined}
      aria-labelledby={scrolls ? labelledBy : undefined}
      tabIndex={scrolls ? 0 : undefined}
      className={css({
        maxW: '100%',
        overflowX: 'auto',
        _focusVisible: { outline: '2px solid', outlineColor: 'primary', outlineOffset: '2px' },
        '@media print': { overflow: 'visible' },
      })}
    >
      {children}
    </div>
  );
}

/** Instalment schedules up to this many rows print on one page, not split across two. */
export const SHORT_SCHEDULE = 18;

/** A block that prints whole: moved to the next page rather than split. */
const keepTogether = css({ '@media print': { breakInside: 'avoid' } });
const keepRow = css({ '@media print': { breakInside: 'avoid' } });
const totalRow = css({
  '& td': { fontWeight: 'bold', borderBottom: 'none', borderTop: '2px solid token(colors.border)' },
  '@media print': { breakInside: 'avoid', breakBefore: 'avoid' },
});

const sectionTitle = css({
  fontSize: 'md',
  fontWeight: 'bold',
  mb: 2,
  '@media print': { fontSize: '11pt', mb: '4pt', breakAfter: 'avoid' },
});

function SummaryRow({
  label,
  value,
  strong,
  testId,
}: {
  label: string;
  value: string;
  strong?: boolean;
  testId?: string;
}) {
  return (
    <div
      className={css({
        display: 'flex',
        justifyContent: 'space-between',
        // On a 320 px phone the final price goes under its label instead of past the edge.
        flexWrap: 'wrap',
        columnGap: 4,
        py: 2,
        borderBottom: '1px solid token(colors.border)',
        '&[data-strong="true"]': { fontSize: 'xl', fontWeight: 'bold', borderBottom: 'none' },
        '@media print': { py: '3pt', '&[data-strong="true"]': { fontSize: '13pt' } },
      })}
      data-strong={strong ? 'true' : 'false'}
    >
      <dt>{label}</dt>
      <dd
        data-testid={testId}
        className={css({ ml: 'auto', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' })}
      >
        {value}
      </dd>
    </div>
  );
}

export function QuoteFiguresView({
  figures,
  currency,
  additions,
  timeZone,
  schemeName,
  toTheCent,
  headingLevel = 3,
}: {
  figures: QuoteFigures;
  /** Currency code of every amount. */
  currency: string;
  additions: readonly FigureAddition[];
  /** Every amount to the cent (core `quotationInCents`), else in whole units. */
  toTheCent: boolean;
  timeZone?: string | undefined;
  schemeName?: string | undefined;
  /** The level of the section headings: 2 where the page's h1 comes right before (no skipped level). */
  headingLevel?: 2 | 3;
}) {
  const { t, i18n } = useTranslation('quotes');
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  // The scheme's and the optionals' names in the corporate's words for the reader's language,
  // on screen and printed (issue 19); a manual extra is the adviser's own text.
  const corporateLabel = useCorporateLabel();
  const money = (cents: number) => formatCents(cents, currency, toTheCent);
  // To the cent, the rounding unit is one cent: every figure is shown as it is.
  const shown = useMemo(
    () =>
      displayedQuote(
        figures,
        additions.map((a) => a.monto as Money),
        toTheCent ? 1 : 100,
      ),
    [figures, additions, toTheCent],
  );
  const partsTotal = figures.parts.reduce((sum, p) => sum + p.amount, 0);
  const shownPartsTotal = shown.parts.reduce((sum, p) => sum + p, 0);
  const verified = partsTotal === figures.finalPrice && shownPartsTotal === shown.finalPrice;
  const monthlyIndex = figures.parts.findIndex((p) => p.key === 'mensualidades');
  const monthly = figures.parts[monthlyIndex];
  const shownMonthly = shown.parts[monthlyIndex] ?? 0;
  const sameInstalments = shown.instalments.every((a) => a === shown.instalments[0]);
  // Optionals of the development and extras added by hand are two lines of the summary (a
  // manual extra is not an optional); their shown amounts add up to the shown extras.
  const manualTotal = additions.reduce(
    (sum, a, i) => (a.tipo === 'extra' ? sum + (shown.additions[i] ?? 0) : sum),
    0,
  );
  const optionalsTotal = shown.extras - manualTotal;
  const percentTotal = figures.parts.reduce((sum, p) => sum + p.porcentaje, 0);
  // A short schedule prints on one page; a long one splits with its header row repeated.
  const shortSchedule = figures.instalments.length <= SHORT_SCHEDULE;
  const headingId = useId();
  const additionsHeading = `${headingId}-additions`;
  const partsHeading = `${headingId}-parts`;
  const instalmentsHeading = `${headingId}-instalments`;
  return (
    <div
      className={css({ display: 'flex', flexDirection: 'column', gap: 5, minW: 0 })}
      data-testid="quote-figures"
    >
      <dl aria-label={t('figures.summary')}>
        <SummaryRow label={t('labels.listPrice')} value={money(shown.listPrice)} />
        <SummaryRow
          label={t('labels.discountWithPercent', {
            percent: formatPercent(figures.discountFraction),
          })}
          value={shown.discount > 0 ? `−${money(shown.discount)}` : money(0)}
          testId="quote-discount"
        />
        <SummaryRow
          label={t('labels.priceAfterDiscount')}
          value={money(shown.priceAfterDiscount)}
        />
        {optionalsTotal > 0 ? (
          <SummaryRow
            label={t('labels.optionals')}
            value={`+${money(optionalsTotal)}`}
            testId="quote-extras"
          />
        ) : null}
        {manualTotal > 0 ? (
          <SummaryRow
            label={t('figures.manualExtras')}
            value={`+${money(manualTotal)}`}
            testId="quote-manual-extras"
          />
        ) : null}
        <SummaryRow
          label={t('labels.finalPrice')}
          value={money(shown.finalPrice)}
          strong
          testId="quote-final-price"
        />
      </dl>

      {additions.length > 0 ? (
        <section className={keepTogether}>
          <Heading id={additionsHeading} className={sectionTitle}>
            {additions.some((a) => a.tipo === 'extra')
              ? t('figures.optionalsAndExtras')
              : t('labels.optionals')}
          </Heading>
          <TableScroll labelledBy={additionsHeading}>
            <table className={table} data-testid="quote-additions">
              <thead>
                <tr>
                  <th scope="col">{t('figures.concept')}</th>
                  <th scope="col">{t('figures.kind')}</th>
                  <th scope="col" data-num>
                    {t('figures.amount')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {additions.map((a, i) => (
                  <tr key={`${a.tipo}-${a.nombre}-${i}`}>
                    <td>
                      {a.tipo === 'opcional' ? corporateLabel('opcional', a.nombre) : a.nombre}
                    </td>
                    <td>{t(`figures.additionKind.${a.tipo}`)}</td>
                    <td data-num>{money(shown.additions[i] ?? 0)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </section>
      ) : null}

      <section className={keepTogether}>
        <Heading id={partsHeading} className={sectionTitle}>
          {schemeName
            ? t('figures.schemeNamed', { name: corporateLabel('esquema', schemeName) })
            : t('labels.schemes')}
        </Heading>
        <TableScroll labelledBy={partsHeading}>
          <table className={table} data-testid="quote-parts">
            <thead>
              <tr>
                <th scope="col">{t('figures.concept')}</th>
                <th scope="col" data-num>
                  %
                </th>
                <th scope="col" data-num>
                  {t('figures.amount')}
                </th>
              </tr>
            </thead>
            <tbody>
              {SCHEME_PART_KEYS.map((key) => {
                const index = figures.parts.findIndex((p) => p.key === key);
                const part = figures.parts[index];
                if (!part) return null;
                return (
                  <tr key={key} data-part={key} data-zero={part.amount === 0 ? 'true' : 'false'}>
                    <td>
                      {t(`labels.parts.${key}`)}
                      {key === 'mensualidades' && figures.months > 0 ? (
                        <span className={css({ color: 'muted' })}>
                          {' '}
                          {t('figures.monthsCount', { count: figures.months })}
                        </span>
                      ) : null}
                    </td>
                    <td data-num>{formatPercent(part.porcentaje)}</td>
                    <td data-num>{money(shown.parts[index] ?? 0)}</td>
                  </tr>
                );
              })}
            </tbody>
            <tfoot>
              <tr>
                <td>{t('labels.totals')}</td>
                <td data-num>{formatPercent(percentTotal)}</td>
                <td data-num>
                  {money(shownPartsTotal)}
                  {verified ? null : (
                    // The parts always add up (the core prices them so); if they ever did not,
                    // it is said in words, not with a bare mark.
                    <span
                      data-testid="quote-not-verified"
                      className={css({ display: 'block', color: 'danger', fontSize: 'xs' })}
                    >
                      {t('figures.notVerified')}
                    </span>
                  )}
                </td>
              </tr>
            </tfoot>
          </table>
        </TableScroll>
      </section>

      {monthly && figures.instalments.length > 0 ? (
        <section
          className={shortSchedule ? keepTogether : undefined}
          data-schedule={shortSchedule ? 'short' : 'long'}
        >
          <Heading id={instalmentsHeading} className={sectionTitle}>
            {sameInstalments
              ? t('figures.instalments', {
                  count: figures.instalments.length,
                  amount: money(shown.instalments[0] ?? 0),
                })
              : t('figures.instalmentsTotal', {
                  count: figures.instalments.length,
                  total: money(shownMonthly),
                })}
          </Heading>
          <TableScroll labelledBy={instalmentsHeading}>
            <table className={table} data-testid="quote-instalments">
              <thead>
                <tr>
                  <th scope="col">{t('figures.number')}</th>
                  <th scope="col">{t('figures.date')}</th>
                  <th scope="col" data-num>
                    {t('figures.amount')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {figures.instalments.map((i, index) => (
                  <tr key={i.number} className={keepRow}>
                    <td>{i.number}</td>
                    <td>{formatDate(i.date, i18n.language, timeZone)}</td>
                    <td data-num>{money(shown.instalments[index] ?? 0)}</td>
                  </tr>
                ))}
                {/* The schedule's total is the last row of the body, not a footer: a browser
                    repeats a table footer on every printed page, where it read like a subtotal. */}
                <tr data-testid="instalments-total" className={totalRow}>
                  <td colSpan={2}>{t('figures.instalmentsSum')}</td>
                  <td data-num>{money(shown.instalments.reduce((sum, a) => sum + a, 0))}</td>
                </tr>
              </tbody>
            </table>
          </TableScroll>
        </section>
      ) : null}
    </div>
  );
}
