/**
 * The signed-in availability pages (`disponibilidad`, `disponibilidad-simple`, `departamentos`):
 * the development's clusters and units from `wsObtenerClusters` (the clusters on screen first,
 * the rest behind them: api/availability-clusters.ts), kept live by the event
 * stream, filtered in the worker, with the unit detail driven by `?unidad=…&s=caracteristicas`.
 */

import { useCallback, useEffect, useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { unitsListedForSignedInUser } from '../../../../core/filters';
import { isHostAdmin, mayExtendHold } from '../../../../core/permissions';
import { holdHoursOf } from '../../../../core/unit';
import { clusterLoadingMachine } from '../../../../machines/cluster-loading.machine';
import { AvailabilityView } from './availability-view';
import { showsFacadeColour, unitFeaturesOf } from '../../../../core/development-settings';
import { useDevelopmentContext } from '../../../layouts/development-context';
import { allUnits, prototypesQuery } from '../../../lib/catalogue';
import { useAvailabilityClusters } from '../api/availability-clusters';
import { developmentPath, publicDevelopmentPath } from '../../../lib/paths';
import { useLiveStream } from '../../../lib/live-stream';
import { absoluteUrl } from '../../../lib/share-link';
import { UnitDetail } from './unit-detail';
import { LoadingRest } from './loading-rest';
import type { FilterSearch } from '../utils/filter-search';
import { selectUnitSearch, type SearchChange, type UnitSearch } from '../utils/unit-search';

export function SignedInAvailability({
  mode,
  search,
  onSearch,
}: {
  mode: 'grid' | 'table' | 'listed';
  search: UnitSearch;
  onSearch: (next: UnitSearch, how?: SearchChange) => void;
}) {
  const { t } = useTranslation('inventory');
  const { corporate, development, display, colors, ctx, canAdminister, user, role } =
    useDevelopmentContext();
  const holds = useMemo(
    () => ({
      idCorporativo: corporate.id,
      userId: user.id,
      mayHold: role !== null && !isHostAdmin(role),
      mayManage: role !== null && mayExtendHold(role),
      hours: holdHoursOf(corporate),
    }),
    [corporate, user.id, role],
  );
  useLiveStream();
  // The clusters on screen first, the rest behind them (issue 21): one view all the same.
  const clusters = useAvailabilityClusters(corporate.id, development.id);
  // Spec §4: the cluster-loading flag clears 100 ms after the clusters (priced from their
  // prototypes by the server) have loaded; the view is busy meanwhile.
  const clusterLoading = useActorRef(clusterLoadingMachine);
  useEffect(() => {
    clusterLoading.send({ type: clusters.isFetching ? 'clusters.load' : 'clusters.loaded' });
  }, [clusterLoading, clusters.isFetching]);
  const clustersLoading = useSelector(clusterLoading, (s) => s.hasTag('loading'));
  const prototypes = useQuery(prototypesQuery(corporate.id, development.id));
  const units = useMemo(() => {
    const all = allUnits(clusters.data);
    return mode === 'listed' ? unitsListedForSignedInUser(all) : all;
  }, [clusters.data, mode]);
  const protoList = useMemo(
    () =>
      (prototypes.data ?? []).filter((p) => p.activo).map((p) => ({ id: p.id, nombre: p.nombre })),
    [prototypes.data],
  );
  const protoNames = useMemo(
    () => new Map((prototypes.data ?? []).map((p) => [p.id, p.nombre])),
    [prototypes.data],
  );
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

  if (clusters.isError) {
    return (
      <p role="alert" className={css({ color: 'danger', p: 6 })}>
        {t('availability.loadFailed')}
      </p>
    );
  }
  if (!clusters.data) {
    return (
      <p role="status" className={css({ color: 'muted', p: 6 })}>
        {t('availability.loading')}
      </p>
    );
  }
  return (
    <div aria-busy={clustersLoading} data-clusters-loading={clustersLoading}>
      {clusters.complete ? null : <LoadingRest loaded={units.length} />}
      <AvailabilityView
        mode={mode === 'grid' ? 'grid' : 'table'}
        developmentId={`${development.id}${mode === 'listed' ? ':listados' : ''}`}
        clusters={clusters.data}
        units={units}
        colors={colors}
        ctx={ctx}
        prototypes={protoList}
        display={display}
        unitCurrency={development.divisa}
        independentColours={showsFacadeColour(development)}
        selectedId={search.unidad}
        onSelect={select}
        filters={search}
        onFilters={filter}
        renderDetail={(unit) => (
          <UnitDetail
            unit={unit}
            colors={colors}
            display={display}
            prototypeName={protoNames.get(unit.idPrototipo)}
            developmentName={development.nombre}
            quoteHref={`${developmentPath(corporate.slug, development.slug, 'cotizacion')}?unidad=${encodeURIComponent(unit.id)}`}
            shareUrl={absoluteUrl(
              `${publicDevelopmentPath(corporate.slug, development.slug, 'disponibilidad')}?unidad=${encodeURIComponent(unit.id)}&s=caracteristicas`,
            )}
            admin={canAdminister ? { idCorporativo: corporate.id } : undefined}
            holds={holds}
            comparatorScope={{ idCorporativo: corporate.id, idDesarrollo: development.id }}
            features={unitFeaturesOf(development)}
            cluster={clusters.data?.find((c) => c.id === unit.idCluster)}
            onClose={close}
          />
        )}
      />
    </div>
  );
}
