/**
 * The visitors' quotation simulator (public variant of `cotizacion`, issue 7):
 * `/public/corporativos/$c/desarrollos/$d/cotizacion?unidad=`. Only units whose price is
 * public; the figures come from `POST /api/public/…/simular`, which prices with the core and
 * saves nothing. No adviser, no lead.
 */

import { useId, useMemo } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { validateScheme } from '../../../../core/pricing';
import { applicableOptionals, effectiveSchemes, schemeForQuote } from '../../../../core/quotation';
import type { Optional, PaymentScheme } from '../../../../core/types';
import { ApiRequestError } from '../../../lib/api';
import { setCurrency, useDisplayChoice } from '../../../lib/display-settings';
import { useAddressChoice } from '../../../lib/address-choice';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { placeText } from '../../../lib/unit-place';
import { unitPlace } from '../../../../core/site-plan';
import { corporateThemeStyle } from '../../../theme/corporate-theme';
import { useFirstPaintDone } from '../../../lib/first-paint';
import { AppLink } from '../../../components/app-link';
import { CurrencyPicker } from '../../../components/currency-picker';
import { PublicPageHeader } from '../../../components/public-page-header';
import { CONTENT_ID } from '../../../components/skip-link';
import { card } from '../../../components/styles';
import { formatAreaIn, makeDisplay } from '../../../lib/figures';
import { mediaUrl } from '../../../lib/catalogue';
import { publicDevelopmentPath } from '../../../lib/paths';
import {
  publicAvailabilityQuery,
  publicPagesInCache,
  type PublicAvailability,
} from '../../../lib/public-catalogue';
import { QuoteFiguresView } from './quote-figures';
import { simulate } from '../api/quotes-data';
import type { QuoteSearch } from '../utils/quote-search';
import { SchemeOption } from './scheme-option';

/** The public availability answer also carries the development's schemes and optionals. */
type WithSchemes = PublicAvailability & {
  desarrollo: PublicAvailability['desarrollo'] & {
    esquemasPago?: PaymentScheme[];
    opcionales?: Optional[];
  };
};

const panel = `${card()} ${css({ p: 5, display: 'flex', flexDirection: 'column', gap: 3 })}`;

export function PublicSimulatorPage({
  corporateSlug,
  developmentSlug,
  search,
  onSearch,
}: {
  corporateSlug: string;
  developmentSlug: string;
  search: QuoteSearch;
  onSearch: (next: QuoteSearch) => void;
}) {
  const { t } = useTranslation('quotes');
  const corporateLabel = useCorporateLabel();
  // A small page: it follows the choice at once (its currency select shows it).
  const { currency, areaUnit } = useDisplayChoice();
  const pickId = useId();
  // Every unit in one read; from the availability page, its pages already hold them (issue 21).
  const client = useQueryClient();
  const query = useQuery({
    ...publicAvailabilityQuery(corporateSlug, developmentSlug),
    initialData: () => publicPagesInCache(client, corporateSlug, developmentSlug)?.data,
    initialDataUpdatedAt: () =>
      publicPagesInCache(client, corporateSlug, developmentSlug)?.updatedAt,
  });
  useFirstPaintDone(!query.isPending);
  const data: WithSchemes | undefined = query.data;
  const display = useMemo(
    () => makeDisplay(data?.corporativo.divisa, currency, areaUnit),
    [data?.corporativo.divisa, currency, areaUnit],
  );
  const unit = data?.clusters.flatMap((c) => c.unidades).find((u) => u.id === search.unidad);
  const schemes = useMemo(
    () =>
      unit && data
        ? effectiveSchemes(data.desarrollo.esquemasPago ?? [], unit.idCluster).filter(
            (s) => validateScheme(schemeForQuote(s)).ok,
          )
        : [],
    [unit, data],
  );
  const optionals = useMemo(
    () =>
      unit && data ? applicableOptionals(data.desarrollo.opcionales ?? [], unit.idCluster) : [],
    [unit, data],
  );
  // The scheme and the optionals live in the address; the controls answer the click before the
  // navigation lands (lib/address-choice.ts).
  const [schemeId, pickScheme] = useAddressChoice(search.esquema, (id) => id ?? '');
  const [optionalIds, pickOptionals] = useAddressChoice(search.opcionales ?? [], (ids) =>
    ids.join(' '),
  );
  const scheme = schemes.find((s) => s.id === schemeId) ?? schemes[0];
  const chosen = optionalIds.filter((id) => optionals.some((o) => o.id === id));
  const priced = unit?.precio !== undefined;
  const simulation = useQuery({
    queryKey: [
      'api',
      'public',
      'simular',
      corporateSlug,
      developmentSlug,
      {
        unidad: unit?.id,
        esquema: scheme?.id,
        opcionales: chosen,
        divisa: display.currency.codigo,
      },
    ],
    queryFn: ({ signal }) =>
      simulate(
        corporateSlug,
        developmentSlug,
        {
          idUnidad: unit!.id,
          idEsquema: scheme!.id,
          opcionales: chosen,
          divisa: display.currency.codigo,
        },
        signal,
      ),
    enabled: !!unit && !!scheme && priced,
    retry: false,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });

  if (query.isPending) {
    return (
      <main
        className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', color: 'muted' })}
      >
        <p role="status">{t('page.loading')}</p>
      </main>
    );
  }
  if (query.isError || !data) {
    const notFound = query.error instanceof ApiRequestError && query.error.status === 404;
    return (
      <main className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', p: 6 })}>
        <p role="alert">{notFound ? t('simulator.notFound') : t('page.loadFailed')}</p>
      </main>
    );
  }

  const logo = mediaUrl(data.corporativo.imagen.imagenLogo);
  const availability = publicDevelopmentPath(corporateSlug, developmentSlug, 'disponibilidad');
  const currencies = display.currencies.filter((c) => c.activo !== false);
  const toggle = (id: string) => {
    const next = chosen.includes(id) ? chosen.filter((x) => x !== id) : [...chosen, id];
    pickOptionals(next);
    const { opcionales: _o, ...rest } = search;
    onSearch(next.length > 0 ? { ...rest, opcionales: next } : rest);
  };

  let content;
  if (!unit) {
    // Without a unit (or with one that is not there), the development's units whose price is
    // public are offered to pick from (issue 19, defect 9), not only "unit not found".
    const pickable = data.clusters.flatMap((c) => c.unidades).filter((u) => u.precio !== undefined);
    content = (
      <section
        className={panel}
        role={search.unidad ? 'alert' : undefined}
        data-testid="simulator-pick-unit"
      >
        <h2 className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
          {search.unidad ? t('page.unitNotFound') : t('page.pickUnitTitle')}
        </h2>
        {pickable.length > 0 ? (
          <>
            <label htmlFor={pickId} className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
              {t('page.unit')}
            </label>
            <select
              id={pickId}
              defaultValue=""
              onChange={(e) => e.target.value && onSearch({ ...search, unidad: e.target.value })}
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
              {pickable.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.nombre}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <AppLink href={availability} className={css({ color: 'link', fontWeight: 'semibold' })}>
          {t('page.backToAvailability')}
        </AppLink>
      </section>
    );
  } else if (!priced) {
    content = (
      <section className={panel} role="alert" data-testid="not-quotable">
        <h2 className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
          {t('page.unitTitle', { name: unit.nombre })}
        </h2>
        <p>{t('simulator.notAvailable', { status: unit.disponibilidad })}</p>
        <AppLink href={availability} className={css({ color: 'link', fontWeight: 'semibold' })}>
          {t('page.backToAvailability')}
        </AppLink>
      </section>
    );
  } else {
    content = (
      <div
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: '1fr', lg: 'minmax(18rem, 24rem) 1fr' },
          gap: 4,
          alignItems: 'start',
        })}
      >
        <div className={css({ display: 'flex', flexDirection: 'column', gap: 4 })}>
          <section className={panel}>
            <h2 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>
              {t('page.unitTitle', { name: unit.nombre })}
            </h2>
            <p className={css({ fontSize: 'sm', color: 'muted' })}>
              {t('simulator.unitSummary', {
                bedrooms: unit.caracteristicas.recamaras,
                area: formatAreaIn(unit.metrajes.areaTotal, display),
                place: placeText(
                  unitPlace(
                    unit,
                    data.clusters.find((c) => c.id === unit.idCluster),
                  ),
                  {
                    street: (number) => t('page.streetOf', { number }),
                    level: (level) => t('page.levelOf', { level }),
                  },
                ),
              })}
            </p>
          </section>
          <section className={panel}>
            <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}>
              <legend className={css({ fontSize: 'lg', fontWeight: 'bold', mb: 2 })}>
                {t('labels.schemes')}
              </legend>
              {schemes.map((s) => (
                <SchemeOption
                  key={s.id}
                  scheme={s}
                  checked={scheme?.id === s.id}
                  onSelect={() => {
                    pickScheme(s.id);
                    onSearch({ ...search, esquema: s.id });
                  }}
                />
              ))}
            </fieldset>
          </section>
          {optionals.length > 0 ? (
            <section className={panel}>
              <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}>
                <legend className={css({ fontSize: 'lg', fontWeight: 'bold', mb: 2 })}>
                  {t('labels.optionals')}
                </legend>
                {optionals.map((o) => (
                  <label
                    key={o.id}
                    className={css({
                      display: 'flex',
                      gap: 2,
                      alignItems: 'center',
                      cursor: 'pointer',
                    })}
                  >
                    <input
                      type="checkbox"
                      checked={chosen.includes(o.id)}
                      onChange={() => toggle(o.id)}
                    />
                    {corporateLabel('opcional', o.nombre)}
                  </label>
                ))}
              </fieldset>
            </section>
          ) : null}
        </div>
        <section className={panel} aria-busy={simulation.isFetching}>
          <h3 className={css({ fontSize: 'lg', fontWeight: 'bold' })}>{t('page.figuresTitle')}</h3>
          {simulation.data ? (
            <QuoteFiguresView
              figures={simulation.data.figuras}
              currency={simulation.data.divisa.codigo}
              additions={simulation.data.adicionales}
              schemeName={simulation.data.esquemasPago.nombre}
              toTheCent={simulation.data.conCentavos}
            />
          ) : simulation.isError ? (
            <p role="alert" className={css({ color: 'danger' })}>
              {t('page.pricingFailed')}
            </p>
          ) : (
            <p role="status" className={css({ color: 'muted' })}>
              {t('page.pricing')}
            </p>
          )}
          <p className={css({ fontSize: 'xs', color: 'muted' })}>{t('simulator.disclaimer')}</p>
        </section>
      </div>
    );
  }

  return (
    <div
      style={corporateThemeStyle(data.corporativo.colores)}
      className={css({ minH: '100dvh', bg: 'bg', color: 'text' })}
    >
      <PublicPageHeader
        logoUrl={logo ?? null}
        corporateName={data.corporativo.nombre}
        title={t('simulator.title', { name: data.desarrollo.nombre })}
        multiIdioma={data.corporativo.multiIdioma}
      >
        <AppLink
          href={availability}
          className={css({ fontSize: 'sm', color: 'link', fontWeight: 'semibold' })}
        >
          {t('page.backToAvailability')}
        </AppLink>
        <CurrencyPicker
          label={t('page.currency')}
          value={display.currency.codigo}
          currencies={currencies}
          onChange={setCurrency}
        />
      </PublicPageHeader>
      <main
        id={CONTENT_ID}
        tabIndex={-1}
        className={css({
          p: { base: 3, md: 6 },
          maxW: '90rem',
          mx: 'auto',
          _focus: { outline: 'none' },
        })}
      >
        {content}
      </main>
    </div>
  );
}
