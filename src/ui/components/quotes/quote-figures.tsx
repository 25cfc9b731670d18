/**
 * The figures of a quotation (spec §9 labels): list price, discount, optionals, final price,
 * each part of the payment scheme with its share and amount, the totals row verified against
 * the final price, and the monthly instalments with their dates. Used by the adviser's page,
 * the buyer's shared page (printed) and the visitors' simulator.
 */

import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { SCHEME_PART_KEYS } from '../../../core/pricing';
import type { QuoteFigures } from '../../../core/quotation';
import { formatCents, formatDate, formatPercent } from './quotes-data';

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
  '& td[data-num], & th[data-num]': { textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
  '& tr[data-zero="true"] td': { color: 'muted' },
  '& tfoot td': { fontWeight: 'bold', borderBottom: 'none' },
  '@media print': { fontSize: '9pt', '& th, & td': { py: '3pt', px: '4pt' } },
});

const sectionTitle = css({
  fontSize: 'md',
  fontWeight: 'bold',
  mb: 2,
  '@media print': { fontSize: '11pt', mb: '4pt' },
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
        gap: 4,
        py: 2,
        borderBottom: '1px solid token(colors.border)',
        '&[data-strong="true"]': { fontSize: 'xl', fontWeight: 'bold', borderBottom: 'none' },
        '@media print': { py: '3pt', '&[data-strong="true"]': { fontSize: '13pt' } },
      })}
      data-strong={strong ? 'true' : 'false'}
    >
      <dt>{label}</dt>
      <dd data-testid={testId} className={css({ fontVariantNumeric: 'tabular-nums' })}>
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
}: {
  figures: QuoteFigures;
  /** Currency code of every amount. */
  currency: string;
  additions: readonly FigureAddition[];
  timeZone?: string | undefined;
  schemeName?: string | undefined;
}) {
  const { t, i18n } = useTranslation('quotes');
  const money = (cents: number) => formatCents(cents, currency);
  const partsTotal = figures.parts.reduce((sum, p) => sum + p.amount, 0);
  const verified = partsTotal === figures.finalPrice;
  const monthly = figures.parts.find((p) => p.key === 'mensualidades');
  return (
    <div
      className={css({ display: 'flex', flexDirection: 'column', gap: 5 })}
      data-testid="quote-figures"
    >
      <dl aria-label={t('figures.summary')}>
        <SummaryRow label={t('labels.listPrice')} value={money(figures.listPrice)} />
        <SummaryRow
          label={t('labels.discountWithPercent', {
            percent: formatPercent(figures.discountFraction),
          })}
          value={figures.discount > 0 ? `−${money(figures.discount)}` : money(0)}
          testId="quote-discount"
        />
        <SummaryRow
          label={t('labels.priceAfterDiscount')}
          value={money(figures.priceAfterDiscount)}
        />
        {figures.extras > 0 ? (
          <SummaryRow label={t('labels.optionals')} value={`+${money(figures.extras)}`} />
        ) : null}
        <SummaryRow
          label={t('labels.finalPrice')}
          value={money(figures.finalPrice)}
          strong
          testId="quote-final-price"
        />
      </dl>

      {additions.length > 0 ? (
        <section>
          <h3 className={sectionTitle}>{t('labels.optionals')}</h3>
          <table className={table}>
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
                  <td>{a.nombre}</td>
                  <td>{t(`figures.additionKind.${a.tipo}`)}</td>
                  <td data-num>{money(a.monto)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}

      <section>
        <h3 className={sectionTitle}>
          {schemeName ? t('figures.schemeNamed', { name: schemeName }) : t('labels.schemes')}
        </h3>
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
              const part = figures.parts.find((p) => p.key === key);
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
                  <td data-num>{money(part.amount)}</td>
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            <tr>
              <td>{t('labels.totals')}</td>
              <td data-num>
                <span
                  title={t('labels.verify')}
                  aria-label={verified ? t('figures.verified') : t('figures.notVerified')}
                  className={css({ color: verified ? 'success' : 'danger' })}
                >
                  {verified ? '✓' : '✗'}
                </span>
              </td>
              <td data-num>{money(partsTotal)}</td>
            </tr>
          </tfoot>
        </table>
      </section>

      {monthly && figures.instalments.length > 0 ? (
        <section>
          <h3 className={sectionTitle}>
            {t('figures.instalments', {
              count: figures.instalments.length,
              amount: money(figures.instalments[0]!.amount),
            })}
          </h3>
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
              {figures.instalments.map((i) => (
                <tr key={i.number}>
                  <td>{i.number}</td>
                  <td>{formatDate(i.date, i18n.language, timeZone)}</td>
                  <td data-num>{money(i.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </div>
  );
}
