/**
 * The visitors' availability (`/public/corporativos/$c/desarrollos/$d/disponibilidad` and
 * `…/disponibilidad-simple`): a light layout with the corporate's logo and colours, embeddable
 * in the corporate's website, reading only `/api/public/…` and kept live by the public stream.
 * The first clusters render first, the rest behind them into the same view (issue 21).
 */

import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import type { Unit } from '../../../../core/types';
import { showsFacadeColour, unitFeaturesOf } from '../../../../core/development-settings';
import { ApiRequestError } from '../../../lib/api';
import {
  useDisplayChoice,
  useDisplaySettings,
  setAreaUnit,
  setCurrency,
} from '../../../lib/display-settings';
import { corporateThemeStyle } from '../../../theme/corporate-theme';
import { AppLink } from '../../../components/app-link';
import { CurrencyPicker } from '../../../components/currency-picker';
import { PublicPageHeader } from '../../../components/public-page-header';
import { CONTENT_ID } from '../../../components/skip-link';
import { AvailabilityView } from './availability-view';
import { makeDisplay } from '../../../lib/figures';
import { mediaUrl } from '../../../lib/catalogue';
import { publicDevelopmentPath } from '../../../lib/paths';
import { usePublicLive } from '../api/public-live';
import { usePublicAvailabilityPages } from '../api/availability-clusters';
import type { PublicAvailability, PublicUnit } from '../../../lib/public-catalogue';
import { absoluteUrl } from '../../../lib/share-link';
import { CorporateLabelsProvider, useStartCorporateLabels } from '../../../lib/corporate-labels';
import { useFirstPaintDone } from '../../../lib/first-paint';
import type { FilterSearch } from '../utils/filter-search';
import { selectUnitSearch, type SearchChange, type UnitSearch } from '../utils/unit-search';
import { UnitDetail } from './unit-detail';
import { LoadingRest } from './loading-rest';

/** A public unit in the core's unit shape (a hidden price is 0: never shown, never priced). */
export function unitFromPublic(u: PublicUnit, idDesarrollo: string): Unit {
  return {
    id: u.id,
    idDesarrollo,
    idCluster: u.idCluster,
    idPrototipo: u.idPrototipo,
    nombre: u.nombre,
    nivel: u.nivel,
    posicion: u.posicion,
    ...(u.status !== null ? { status: u.status } : {}),
    // A house is drawn on its stage's site plan (issue 19, defect 10).
    ...(u.categoria ? { categoria: u.categoria } : {}),
    precio: u.precio ?? 0,
    divisa: u.divisa,
    caracteristicas: u.caracteristicas,
    metrajes: u.metrajes,
  };
}

function PublicHeader({
  data,
  mode,
  corporateSlug,
  developmentSlug,
}: {
  data: PublicAvailability;
  mode: 'grid' | 'table';
  corporateSlug: string;
  developmentSlug: string;
}) {
  const { t } = useTranslation('inventory');
  const { currency, areaUnit } = useDisplayChoice();
  const logo = data.corporativo.imagen.imagenLogo;
  const other = mode === 'grid' ? 'disponibilidad-simple' : 'disponibilidad';
  const currencies = data.corporativo.divisa.filter((c) => c.activo);
  return (
    <PublicPageHeader
      logoUrl={mediaUrl(logo) ?? null}
      corporateName={data.corporativo.nombre}
      title={t('public.title', { name: data.desarrollo.nombre })}
      multiIdioma={data.corporativo.multiIdioma}
    >
      <AppLink
        href={publicDevelopmentPath(corporateSlug, developmentSlug, other)}
        className={css({ fontSize: 'sm', color: 'link', fontWeight: 'semibold' })}
      >
        {t(`pages.${other}`)}
      </AppLink>
      <label className={css({ display: 'flex', alignItems: 'center', gap: 1, fontSize: 'sm' })}>
        {t('public.area')}
        <select
          value={areaUnit}
          onChange={(e) => setAreaUnit(e.target.value === 'ft2' ? 'ft2' : 'm2')}
          className={css({
            h: 9,
            px: 1,
            borderRadius: 'md',
            border: '1px solid token(colors.border)',
            bg: 'surface',
          })}
        >
          <option value="m2">m²</option>
          <option value="ft2">ft²</option>
        </select>
      </label>
      <CurrencyPicker
        label={t('public.currency')}
        value={currency}
        currencies={currencies}
        onChange={setCurrency}
      />
    </PublicPageHeader>
  );
}

export function PublicAvailabilityPage({
  corporateSlug,
  developmentSlug,
  mode,
  search,
  onSearch,
}: {
  corporateSlug: string;
  developmentSlug: string;
  mode: 'grid' | 'table';
  search: UnitSearch;
  onSearch: (next: UnitSearch, how?: SearchChange) => void;
}) {
  const { t } = useTranslation('inventory');
  const { currency, areaUnit } = useDisplaySettings();
  // The clusters on screen first, the rest behind them (issue 21): one view all the same. The
  // server's first paint goes when the first page (or its error) is drawn.
  const query = usePublicAvailabilityPages(corporateSlug, developmentSlug);
  // The corporate's labels beside it: the view waits for both (their length moves its legend).
  useStartCorporateLabels(corporateSlug);
  useFirstPaintDone(!query.isPending);
  usePublicLive(corporateSlug, developmentSlug);
  const data = query.data;
  const display = useMemo(
    () => makeDisplay(data?.corporativo.divisa, currency, areaUnit),
    [data?.corporativo.divisa, currency, areaUnit],
  );
  const units = useMemo(
    () =>
      data
        ? data.clusters.flatMap((c) => c.unidades.map((u) => unitFromPublic(u, data.desarrollo.id)))
        : [],
    [data],
  );
  // Visitors never see hidden prices: the server leaves them out, and the filter treats them as hidden.
  const ctx = useMemo(
    () => ({ statusColors: data?.coloresStatus ?? {}, hideUnavailablePrices: true }),
    [data?.coloresStatus],
  );
  const prototypes = useMemo(
    () => (data?.prototipos ?? []).map((p) => ({ id: p.id, nombre: p.nombre })),
    [data],
  );
  const protoNames = useMemo(() => new Map(prototypes.map((p) => [p.id, p.nombre])), [prototypes]);
  const select = useCallback(
    (id: string) => onSearch(selectUnitSearch(search, id)),
    [onSearch, search],
  );
  const close = useCallback(
    () => onSearch(selectUnitSearch(search, undefined)),
    [onSearch, search],
  );
  const filter = useCallback(
    (filters: FilterSearch, how: SearchChange) => onSearch({ ...search, ...filters }, how),
    [onSearch, search],
  );
  const withBackground =
    search.mostrarFondo !== false && search.mostrarFondo !== 'false' && search.mostrarFondo !== 0;

  if (query.isPending) {
    return (
      <main
        className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', color: 'muted' })}
      >
        <p role="status">{t('availability.loading')}</p>
      </main>
    );
  }
  if (query.isError || !data) {
    const notFound = query.error instanceof ApiRequestError && query.error.status === 404;
    return (
      <main
        className={css({
          minH: '100dvh',
          display: 'grid',
          placeItems: 'center',
          p: 6,
          textAlign: 'center',
        })}
      >
        <p role="alert" className={css({ fontSize: 'lg' })}>
          {notFound ? t('development.notFound') : t('availability.loadFailed')}
        </p>
      </main>
    );
  }
  return (
    <CorporateLabelsProvider corporate={corporateSlug}>
      <div
        style={corporateThemeStyle(data.corporativo.colores)}
        className={css({
          minH: '100dvh',
          color: 'text',
          '&[data-background="true"]': { bg: 'bg' },
        })}
        data-background={withBackground ? 'true' : 'false'}
      >
        <PublicHeader
          data={data}
          mode={mode}
          corporateSlug={corporateSlug}
          developmentSlug={developmentSlug}
        />
        <main
          id={CONTENT_ID}
          tabIndex={-1}
          className={css({
            p: { base: 3, md: 6 },
            maxW: '120rem',
            mx: 'auto',
            _focus: { outline: 'none' },
          })}
        >
          {query.complete ? null : <LoadingRest loaded={units.length} />}
          <AvailabilityView
            mode={mode}
            developmentId={`public:${data.desarrollo.id}`}
            clusters={data.clusters}
            units={units}
            colors={data.coloresStatus}
            ctx={ctx}
            prototypes={prototypes}
            display={display}
            unitCurrency={data.desarrollo.divisa}
            independentColours={showsFacadeColour(data.desarrollo)}
            selectedId={search.unidad}
            onSelect={select}
            filters={search}
            onFilters={filter}
            renderDetail={(unit) => (
              <UnitDetail
                unit={unit}
                colors={data.coloresStatus}
                display={display}
                prototypeName={protoNames.get(unit.idPrototipo)}
                developmentName={data.desarrollo.nombre}
                quoteHref={`${publicDevelopmentPath(corporateSlug, developmentSlug, 'cotizacion')}?unidad=${encodeURIComponent(unit.id)}`}
                shareUrl={absoluteUrl(
                  `${publicDevelopmentPath(corporateSlug, developmentSlug, 'disponibilidad')}?unidad=${encodeURIComponent(unit.id)}&s=caracteristicas`,
                )}
                features={unitFeaturesOf(data.desarrollo)}
                cluster={data.clusters.find((c) => c.id === unit.idCluster)}
                onClose={close}
              />
            )}
          />
        </main>
      </div>
    </CorporateLabelsProvider>
  );
}
