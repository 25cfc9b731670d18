/**
 * `cotizacion-adicionales` (spec §2, issue 7): the optionals of the unit's cluster
 * (`wsObtenerExtrasAdicionales`) and extras added by hand, chosen here and carried back to the
 * quotation in the search params, where they are added to the final price and listed. An extra
 * is recorded with the currency its price was entered in and shown converted to the chosen one.
 */

import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { currencyCode } from '../../../../core/currency';
import { moneyFromMajor } from '../../../../core/money';
import { extraAmount, quotationInCents, type QuotationExtra } from '../../../../core/quotation';
import { button, card } from '../../../components/styles';
import { useDevelopmentContext } from '../../../layouts/development-context';
import { useAddressChoice } from '../../../lib/address-choice';
import { allUnits, clustersQuery } from '../../../lib/catalogue';
import { formatPrice } from '../../../lib/figures';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { extrasQuery } from '../api/quotes-data';
import { formatCents } from '../utils/quote-format';
import { priceableExtras } from '../utils/quote-input';
import type { QuoteSearch } from '../utils/quote-search';

const panel = `${card()} ${css({ p: 5, display: 'flex', flexDirection: 'column', gap: 3 })}`;
const input = css({
  h: 10,
  px: 3,
  borderRadius: 'md',
  border: '1px solid token(colors.border)',
  bg: 'surface',
  fontSize: 'sm',
});

export function ExtrasPage({
  search,
  onSearch,
}: {
  search: QuoteSearch;
  onSearch: (next: QuoteSearch) => void;
}) {
  const { t } = useTranslation('quotes');
  const corporateLabel = useCorporateLabel();
  const { corporate, development, display } = useDevelopmentContext();
  const clusters = useQuery(clustersQuery(corporate.id, development.id));
  const unit = allUnits(clusters.data).find((u) => u.id === search.unidad);
  const optionals = useQuery({
    ...extrasQuery(corporate.id, development.id, unit?.idCluster ?? ''),
    enabled: !!unit,
  });
  const [name, setName] = useState('');
  const [price, setPrice] = useState('');
  const ids = { name: useId(), price: useId() };
  // The optionals live in the address; a checkbox answers the click before the navigation lands.
  const [chosenIds, pickOptionals] = useAddressChoice(search.opcionales ?? [], (ids) =>
    ids.join(' '),
  );
  const chosen = new Set(chosenIds);
  const extras = search.extras ?? [];

  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    pickOptionals([...next]);
    const { opcionales: _o, ...rest } = search;
    onSearch(next.size > 0 ? { ...rest, opcionales: [...next] } : rest);
  };
  const setExtras = (list: typeof extras) => {
    const { extras: _e, ...rest } = search;
    onSearch(list.length > 0 ? { ...rest, extras: list } : rest);
  };
  const amount = Number(price.replace(/,/g, ''));
  const canAdd =
    name.trim().length > 0 && price.trim() !== '' && Number.isFinite(amount) && amount >= 0;
  const add = (e: FormEvent) => {
    e.preventDefault();
    if (!canAdd) return;
    setExtras([
      ...extras,
      {
        nombre: name.trim(),
        precio: Math.round(amount * 100) / 100,
        divisa: display.currency.codigo,
      },
    ]);
    setName('');
    setPrice('');
  };
  // To the cent as the quotation will show it (from the extras it can price).
  const toTheCent = quotationInCents({
    precioEnCotizacion: unit?.precio ?? 0,
    opcionales: (optionals.data ?? []).filter((o) => chosen.has(o.id)),
    extras: priceableExtras(extras, display.currencies),
  });
  /** In the chosen currency, and as entered when that was another one. */
  const extraPrice = (x: QuotationExtra) => {
    const code = display.currency.codigo;
    const converted = extraAmount(x, display.currencies, display.currency);
    if (x.divisa === undefined || currencyCode(x.divisa) === currencyCode(code)) {
      return formatCents(converted ?? moneyFromMajor(x.precio), code, toTheCent);
    }
    const entered = formatCents(moneyFromMajor(x.precio), currencyCode(x.divisa), toTheCent);
    return converted === null
      ? t('extras.unknownCurrency', { entered })
      : t('extras.converted', { amount: formatCents(converted, code, toTheCent), entered });
  };

  const back = (
    <Link
      to="/corporativos/$corporativo/desarrollos/$desarrollo/cotizacion"
      params={{ corporativo: corporate.slug, desarrollo: development.slug }}
      search={search}
      className={button()}
      data-testid="back-to-quote"
    >
      {t('extras.back')}
    </Link>
  );

  if (clusters.isPending) {
    return (
      <p role="status" className={css({ color: 'muted', p: 6 })}>
        {t('page.loading')}
      </p>
    );
  }
  if (!unit) {
    return (
      <section className={panel} role="alert">
        <h2 className={css({ fontSize: 'lg', fontWeight: 'bold' })}>{t('page.unitNotFound')}</h2>
        {back}
      </section>
    );
  }

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: 4, maxW: '56rem' })}>
      <section className={panel}>
        <h2 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>
          {t('extras.title', { name: unit.nombre })}
        </h2>
        <p className={css({ color: 'muted', fontSize: 'sm' })}>{t('extras.help')}</p>
      </section>

      <section className={panel}>
        <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}>
          <legend className={css({ fontSize: 'lg', fontWeight: 'bold', mb: 2 })}>
            {t('labels.optionals')}
          </legend>
          {optionals.isPending ? (
            <p role="status" className={css({ color: 'muted' })}>
              {t('page.loading')}
            </p>
          ) : (optionals.data ?? []).length === 0 ? (
            <p className={css({ color: 'muted' })}>{t('extras.none')}</p>
          ) : (
            (optionals.data ?? []).map((o) => (
              <label
                key={o.id}
                className={css({
                  display: 'flex',
                  alignItems: 'center',
                  gap: 3,
                  p: 3,
                  borderRadius: 'lg',
                  border: '1px solid token(colors.border)',
                  cursor: 'pointer',
                  '&:has(input:checked)': { borderColor: 'primary', bg: 'rgba(31,111,235,0.06)' },
                })}
              >
                <input type="checkbox" checked={chosen.has(o.id)} onChange={() => toggle(o.id)} />
                <span className={css({ flex: 1 })}>{corporateLabel('opcional', o.nombre)}</span>
                <span
                  className={css({ fontVariantNumeric: 'tabular-nums', fontWeight: 'semibold' })}
                >
                  {formatPrice(o.precio, display, development.divisa)}
                </span>
              </label>
            ))
          )}
        </fieldset>
      </section>

      <section className={panel}>
        <h3 className={css({ fontSize: 'lg', fontWeight: 'bold' })}>{t('extras.manualTitle')}</h3>
        {extras.length > 0 ? (
          <ul className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}>
            {extras.map((e, i) => (
              <li
                key={`${e.nombre}-${i}`}
                className={css({ display: 'flex', alignItems: 'center', gap: 3, fontSize: 'sm' })}
              >
                <span className={css({ flex: 1 })}>{e.nombre}</span>
                <span data-testid="extra-price">{extraPrice(e)}</span>
                <button
                  type="button"
                  className={button({ variant: 'ghost' })}
                  onClick={() => setExtras(extras.filter((_, j) => j !== i))}
                  aria-label={t('extras.remove', { name: e.nombre })}
                >
                  ✕
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <form
          onSubmit={add}
          className={css({ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-end' })}
        >
          <div
            className={css({
              display: 'flex',
              flexDirection: 'column',
              gap: 1,
              flex: 2,
              minW: '12rem',
            })}
          >
            <label htmlFor={ids.name} className={css({ fontSize: 'sm' })}>
              {t('extras.name')}
            </label>
            <input
              id={ids.name}
              className={input}
              maxLength={120}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div
            className={css({
              display: 'flex',
              flexDirection: 'column',
              gap: 1,
              flex: 1,
              minW: '9rem',
            })}
          >
            <label htmlFor={ids.price} className={css({ fontSize: 'sm' })}>
              {t('extras.price', { currency: display.currency.codigo })}
            </label>
            <input
              id={ids.price}
              className={input}
              inputMode="decimal"
              value={price}
              onChange={(e) => setPrice(e.target.value)}
            />
          </div>
          <button type="submit" className={button({ variant: 'ghost' })} disabled={!canAdd}>
            {t('extras.add')}
          </button>
        </form>
      </section>

      <div>{back}</div>
    </div>
  );
}
