/**
 * The adviser's quotation page (`…/desarrollos/$d/cotizacion?unidad=`; spec §2, issue 7): the
 * unit, why it cannot be quoted when its status says so, the payment schemes of its cluster (a
 * cluster variant replaces the default), the figures priced by the core in the worker in the
 * chosen currency and area unit, the optionals and extras chosen on `cotizacion-adicionales`,
 * and the actions: save to a lead, favourite, share.
 */

import { useId, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { currencyCode } from '../../../../core/currency';
import { moneyFromMajor } from '../../../../core/money';
import { displayedQuote } from '../../../../core/pricing';
import {
  extraAmount,
  quotationInCents,
  type Quotation,
  type QuotationExtra,
} from '../../../../core/quotation';
import type { Unit } from '../../../../core/types';
import { useDisplayChoice, currencyName } from '../../../lib/display-settings';
import { AppLink } from '../../../components/app-link';
import { card } from '../../../components/styles';
import { useDevelopmentContext } from '../../../layouts/development-context';
import { useAddressChoice } from '../../../lib/address-choice';
import { allUnits, clustersQuery, prototypesQuery, unitView } from '../../../lib/catalogue';
import { developmentPath } from '../../../lib/paths';
import { formatAreaIn, formatPrice, makeDisplay } from '../../../lib/figures';
import { textOn } from '../../../theme/contrast';
import { QuoteFiguresView } from './quote-figures';
import { buildQuoteInput, priceableExtras } from '../utils/quote-input';
import { extrasQuery, schemesQuery } from '../api/quotes-data';
import { formatCents } from '../utils/quote-format';
import type { QuoteSearch } from '../utils/quote-search';
import { SchemeOption } from './scheme-option';
import { SaveQuotation, SavedQuotation } from './save-quotation';
import { useWorkerQuote } from '../hooks/use-worker-quote';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { placeValue } from '../../../lib/unit-place';
import { unitPlace } from '../../../../core/site-plan';

const panel = `${card()} ${css({ p: 5, display: 'flex', flexDirection: 'column', gap: 3 })}`;
const panelTitle = css({ fontSize: 'lg', fontWeight: 'bold' });

function UnitPicker({ units, onPick }: { units: Unit[]; onPick: (id: string) => void }) {
  const { t } = useTranslation('quotes');
  const id = useId();
  const { colors } = useDevelopmentContext();
  const quotable = units.filter((u) => unitView(u, colors).quotable);
  return (
    <section className={panel}>
      <h2 className={panelTitle}>{t('page.pickUnitTitle')}</h2>
      <p className={css({ color: 'muted', fontSize: 'sm' })}>{t('page.pickUnitHelp')}</p>
      <label htmlFor={id} className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
        {t('page.unit')}
      </label>
      <select
        id={id}
        defaultValue=""
        onChange={(e) => e.target.value && onPick(e.target.value)}
        className={css({
          h: 10,
          px: 3,
          borderRadius: 'md',
          border: '1px solid token(colors.border)',
          bg: 'surface',
          maxW: '24rem',
        })}
      >
        <option value="">{t('page.chooseUnit')}</option>
        {quotable.map((u) => (
          <option key={u.id} value={u.id}>
            {u.nombre}
          </option>
        ))}
      </select>
    </section>
  );
}

export function QuotationPage({
  search,
  onSearch,
}: {
  search: QuoteSearch;
  onSearch: (next: QuoteSearch) => void;
}) {
  const { t } = useTranslation('quotes');
  const corporateLabel = useCorporateLabel();
  const { corporate, development, display, colors } = useDevelopmentContext();
  const clusters = useQuery(clustersQuery(corporate.id, development.id));
  const prototypes = useQuery(prototypesQuery(corporate.id, development.id));
  const units = useMemo(() => allUnits(clusters.data), [clusters.data]);
  const availability = developmentPath(corporate.slug, development.slug, 'disponibilidad');

  if (clusters.isPending) {
    return (
      <p role="status" className={css({ color: 'muted', p: 6 })}>
        {t('page.loading')}
      </p>
    );
  }
  if (clusters.isError) {
    return (
      <p role="alert" className={css({ color: 'danger', p: 6 })}>
        {t('page.loadFailed')}
      </p>
    );
  }
  if (!search.unidad) {
    return <UnitPicker units={units} onPick={(id) => onSearch({ unidad: id })} />;
  }
  const unit = units.find((u) => u.id === search.unidad);
  if (!unit) {
    return (
      <section className={panel} role="alert">
        <h2 className={panelTitle}>{t('page.unitNotFound')}</h2>
        <AppLink href={availability} className={css({ color: 'link', fontWeight: 'semibold' })}>
          {t('page.backToAvailability')}
        </AppLink>
      </section>
    );
  }
  const view = unitView(unit, colors);
  const cluster = clusters.data.find((c) => c.id === unit.idCluster);
  const place = unitPlace(unit, cluster);
  const prototype = prototypes.data?.find((p) => p.id === unit.idPrototipo);

  const header = (
    <section className={panel} aria-labelledby="quote-unit-title">
      <div className={css({ display: 'flex', alignItems: 'center', gap: 3, flexWrap: 'wrap' })}>
        <h2 id="quote-unit-title" className={css({ fontSize: '2xl', fontWeight: 'bold', flex: 1 })}>
          {t('page.unitTitle', { name: unit.nombre })}
        </h2>
        <span
          className={css({
            px: 3,
            py: 1,
            borderRadius: 'full',
            fontSize: 'sm',
            fontWeight: 'semibold',
          })}
          style={{ background: view.hexColor, color: textOn(view.hexColor) }}
          data-testid="quote-unit-status"
        >
          {corporateLabel('status', view.disponibilidad)}
        </span>
      </div>
      <dl
        className={css({
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fit, minmax(9rem, 1fr))',
          gap: 3,
          fontSize: 'sm',
          '& dt': { color: 'muted', fontSize: 'xs' },
          '& dd': { fontWeight: 'semibold' },
        })}
      >
        <div>
          <dt>{t('page.cluster')}</dt>
          <dd>{cluster?.nombre ?? '—'}</dd>
        </div>
        <div>
          <dt>{t('page.prototype')}</dt>
          <dd>{prototype?.nombre ?? '—'}</dd>
        </div>
        <div>
          <dt>{t(place.kind === 'street' ? 'page.street' : 'page.level')}</dt>
          <dd>{placeValue(place)}</dd>
        </div>
        <div>
          <dt>{t('page.area')}</dt>
          <dd>{formatAreaIn(unit.metrajes.areaTotal, display)}</dd>
        </div>
        <div>
          <dt>{t('page.bedrooms')}</dt>
          <dd>{unit.caracteristicas.recamaras}</dd>
        </div>
        {view.priceVisible ? (
          <div>
            <dt>{t('labels.listPrice')}</dt>
            <dd data-testid="quote-unit-price">{formatPrice(unit.precio, display, unit.divisa)}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  );

  if (!view.quotable) {
    return (
      <div className={css({ display: 'flex', flexDirection: 'column', gap: 4 })}>
        {header}
        <section className={panel} role="alert" data-testid="not-quotable">
          <h3 className={panelTitle}>{t('page.notQuotableTitle')}</h3>
          <p>{t('page.notQuotable', { status: view.disponibilidad })}</p>
          <AppLink href={availability} className={css({ color: 'link', fontWeight: 'semibold' })}>
            {t('page.backToAvailability')}
          </AppLink>
        </section>
      </div>
    );
  }
  return (
    <QuotableUnit key={unit.id} unit={unit} header={header} search={search} onSearch={onSearch} />
  );
}

function QuotableUnit({
  unit,
  header,
  search,
  onSearch,
}: {
  unit: Unit;
  header: ReactNode;
  search: QuoteSearch;
  onSearch: (next: QuoteSearch) => void;
}) {
  const { t, i18n } = useTranslation('quotes');
  const corporateLabel = useCorporateLabel();
  const { corporate, development, display } = useDevelopmentContext();
  // The select shows the choice at once; the figures follow in a transition.
  const choice = useDisplayChoice();
  const chosenCurrency = makeDisplay(display.currencies, choice.currency, choice.areaUnit).currency;
  const currencyId = useId();
  // One instant per visit: instalment dates do not move while the adviser changes options.
  const [now] = useState(() => new Date());
  const [saved, setSaved] = useState<{ key: string; quotation: Quotation } | null>(null);
  const schemes = useQuery(schemesQuery(corporate.id, development.id, unit.idCluster));
  const optionals = useQuery(extrasQuery(corporate.id, development.id, unit.idCluster));

  const valid = (schemes.data ?? []).filter((s) => s.valido);
  // The scheme lives in the address; the radio answers the click before the navigation lands.
  const [chosenId, pickScheme] = useAddressChoice(search.esquema, (id) => id ?? '');
  const scheme = valid.find((s) => s.id === chosenId) ?? valid[0];
  const chosenOptionals = useMemo(
    () => (optionals.data ?? []).filter((o) => search.opcionales?.includes(o.id)),
    [optionals.data, search.opcionales],
  );
  // Each extra keeps the currency it was entered in; it is converted to the one quoted.
  const extras = useMemo(
    () => priceableExtras(search.extras ?? [], display.currencies),
    [search.extras, display.currencies],
  );

  const built = useMemo(
    () =>
      scheme && optionals.data
        ? buildQuoteInput({
            unit,
            scheme,
            developmentCurrency: development.divisa,
            fechaEntrega: development.fechaEntrega,
            timeZone: corporate.zonaHoraria || 'UTC',
            currencies: display.currencies,
            to: display.currency,
            optionals: chosenOptionals,
            extras,
            now,
          })
        : null,
    [
      unit,
      scheme,
      optionals.data,
      development,
      corporate.zonaHoraria,
      display,
      chosenOptionals,
      extras,
      now,
    ],
  );
  const toTheCent = quotationInCents({
    precioEnCotizacion: unit.precio,
    opcionales: chosenOptionals,
    extras,
  });
  const figures = useWorkerQuote(
    useMemo(
      () =>
        built
          ? { ...built, currency: display.currency.codigo, schemeName: scheme?.nombre, toTheCent }
          : null,
      [built, display.currency.codigo, scheme?.nombre, toTheCent],
    ),
  );
  // The extras' amounts as the figures show them (while the figures are for this input).
  const shownAdditions = useMemo(
    () =>
      figures.data && built && !figures.isPlaceholderData
        ? displayedQuote(
            figures.data.figures,
            built.additions.map((a) => a.monto),
            toTheCent ? 1 : 100,
          ).additions.slice(built.additions.length - extras.length)
        : null,
    [figures.data, figures.isPlaceholderData, built, extras.length, toTheCent],
  );
  const extraText = (e: QuotationExtra, i: number) => {
    const code = display.currency.codigo;
    const amount = formatCents(
      shownAdditions?.[i] ?? extraAmount(e, display.currencies, display.currency) ?? 0,
      code,
      toTheCent,
    );
    return e.divisa !== undefined && currencyCode(e.divisa) !== currencyCode(code)
      ? t('page.extraEntered', {
          name: e.nombre,
          amount,
          entered: formatCents(moneyFromMajor(e.precio), currencyCode(e.divisa), toTheCent),
        })
      : t('page.extra', { name: e.nombre, amount });
  };

  const body = scheme
    ? {
        idUnidad: unit.id,
        idEsquema: scheme.id,
        opcionales: chosenOptionals.map((o) => o.id),
        extras: [...extras],
        divisa: display.currency.codigo,
      }
    : null;
  const bodyKey = JSON.stringify(body);
  const savedHere = saved && saved.key === bodyKey ? saved.quotation : null;
  const activeCurrencies = display.currencies.filter((c) => c.activo !== false);

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: 4 })}>
      {header}
      <div
        className={css({
          display: 'grid',
          // minmax(0, …): a column is never wider than the page for a long input or option.
          gridTemplateColumns: {
            base: 'minmax(0, 1fr)',
            lg: 'minmax(18rem, 24rem) minmax(0, 1fr)',
          },
          gap: 4,
          alignItems: 'start',
        })}
      >
        <div className={css({ display: 'flex', flexDirection: 'column', gap: 4 })}>
          <section className={panel}>
            <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}>
              <legend className={`${panelTitle} ${css({ mb: 2 })}`}>{t('labels.schemes')}</legend>
              {schemes.isPending ? (
                <p role="status" className={css({ color: 'muted' })}>
                  {t('page.loading')}
                </p>
              ) : valid.length === 0 ? (
                <p role="alert">{t('page.noSchemes')}</p>
              ) : (
                valid.map((s) => (
                  <SchemeOption
                    key={s.id}
                    scheme={s}
                    checked={scheme?.id === s.id}
                    onSelect={() => {
                      pickScheme(s.id);
                      onSearch({ ...search, esquema: s.id });
                    }}
                  />
                ))
              )}
            </fieldset>
          </section>

          <section className={panel}>
            <h3 className={panelTitle}>{t('labels.optionals')}</h3>
            {chosenOptionals.length === 0 && extras.length === 0 ? (
              <p className={css({ color: 'muted', fontSize: 'sm' })}>{t('page.noOptionals')}</p>
            ) : (
              <ul className={css({ fontSize: 'sm', listStyle: 'disc', pl: 5 })}>
                {chosenOptionals.map((o) => (
                  <li key={o.id}>{corporateLabel('opcional', o.nombre)}</li>
                ))}
                {extras.map((e, i) => (
                  <li key={`x-${i}`} data-testid="quote-extra">
                    {extraText(e, i)}
                  </li>
                ))}
              </ul>
            )}
            <Link
              to="/corporativos/$corporativo/desarrollos/$desarrollo/cotizacion-adicionales"
              params={{ corporativo: corporate.slug, desarrollo: development.slug }}
              search={{ ...search, unidad: unit.id, ...(scheme ? { esquema: scheme.id } : {}) }}
              data-testid="edit-extras"
              className={css({ color: 'link', fontWeight: 'semibold', fontSize: 'sm' })}
            >
              {t('page.editOptionals')}
            </Link>
          </section>

          {activeCurrencies.length > 1 ? (
            <section className={panel}>
              <label htmlFor={currencyId} className={css({ fontWeight: 'semibold' })}>
                {t('page.currency')}
              </label>
              <select
                id={currencyId}
                value={chosenCurrency.codigo}
                onChange={(e) => choice.setCurrency(e.target.value)}
                className={css({
                  h: 10,
                  px: 3,
                  borderRadius: 'md',
                  border: '1px solid token(colors.border)',
                  bg: 'surface',
                })}
              >
                {activeCurrencies.map((c) => (
                  <option key={c.codigo} value={c.codigo}>
                    {c.codigo} · {currencyName(c, i18n.language)}
                  </option>
                ))}
              </select>
            </section>
          ) : null}
          <section className={panel} aria-labelledby="quote-actions">
            <h3 id="quote-actions" className={panelTitle}>
              {t('labels.actions')}
            </h3>
            {savedHere ? (
              <SavedQuotation
                corporate={corporate}
                quotation={savedHere}
                onChange={(q) => setSaved({ key: bodyKey, quotation: q })}
              />
            ) : body ? (
              <SaveQuotation
                corporate={corporate}
                body={body}
                disabled={!figures.data}
                onSaved={(q) => setSaved({ key: bodyKey, quotation: q })}
              />
            ) : null}
          </section>
        </div>

        <div className={css({ display: 'flex', flexDirection: 'column', gap: 4 })}>
          <section className={panel} aria-busy={figures.isFetching}>
            <h3 className={panelTitle}>{t('page.figuresTitle')}</h3>
            {figures.data ? (
              // The figures with the currency and lines they were priced with, until the
              // next ones are ready.
              <QuoteFiguresView
                figures={figures.data.figures}
                currency={figures.data.currency}
                additions={figures.data.additions}
                timeZone={corporate.zonaHoraria}
                schemeName={figures.data.schemeName}
                toTheCent={figures.data.toTheCent}
              />
            ) : figures.isError ? (
              <p role="alert" className={css({ color: 'danger' })}>
                {t('page.pricingFailed')}
              </p>
            ) : (
              <p role="status" className={css({ color: 'muted' })}>
                {t('page.pricing')}
              </p>
            )}
          </section>
        </div>
      </div>
    </div>
  );
}
