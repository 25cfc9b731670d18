/**
 * The corporate home: an inventory dashboard of the corporate's developments — totals, units by
 * status (in the corporate's status colours) per development, price from, and the user's
 * favourite developments as shortcuts. The prices (in the chosen currency) and each status's
 * label and colour are built by the core worker (issue 20, the card's worker).
 */

import { useMemo } from 'react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { corporatePath } from '../../../../core/navigation';
import { AppLink } from '../../../components/app-link';
import { MapPinIcon, StarIcon } from '../../../components/icons';
import { LoadingScreen } from '../../../components/loading-screen';
import { card } from '../../../components/styles';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { useDateFormat } from '../../../lib/dates';
import { clustersQuery, type ClusterWithUnits } from '../../../lib/catalogue';
import { useDisplaySettings } from '../../../lib/display-settings';
import { makeDisplay } from '../../../lib/figures';
import { useCoreFigures } from '../../../lib/use-core-figures';
import { homeDevelopmentsQuery } from '../api/home-queries';

function countByStatus(clusters: ClusterWithUnits[] | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  for (const cluster of clusters ?? []) {
    for (const unit of cluster.unidades) {
      const status = unit.status ?? 'Sin Estatus';
      counts.set(status, (counts.get(status) ?? 0) + 1);
    }
  }
  return counts;
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className={`${card()} ${css({ p: 5 })}`}>
      <dt className={css({ fontSize: 'sm', color: 'muted' })}>{label}</dt>
      <dd className={css({ fontSize: '3xl', fontWeight: 'bold', letterSpacing: '-0.02em', mt: 1 })}>
        {value.toLocaleString()}
      </dd>
    </div>
  );
}

export function CorporateHome() {
  const { t } = useTranslation('shell');
  const { corporate, user } = useCorporateContext();
  const { currency, areaUnit } = useDisplaySettings();
  const display = useMemo(
    () => makeDisplay(corporate.divisa, currency, areaUnit),
    [corporate.divisa, currency, areaUnit],
  );
  const formatDate = useDateFormat(corporate.zonaHoraria);
  const developments = useQuery(homeDevelopmentsQuery(corporate.id));
  const list = developments.data ?? [];
  const clusters = useQueries({
    queries: list.map((d) => clustersQuery(corporate.id, d.id)),
  });

  // Each card's price from and its units by status (label, colour, count), from the worker.
  const inputs = list.map((d, i) => {
    const counts = clusters[i]?.data ? countByStatus(clusters[i].data) : undefined;
    return {
      id: d.id,
      precioDesde: d.precioDesde ?? null,
      divisa: d.divisa ?? null,
      statusCounts: counts ? Object.fromEntries(counts) : undefined,
    };
  });
  const figures = useCoreFigures(
    list.length === 0
      ? null
      : JSON.stringify([
          display.currency.codigo,
          display.currencies,
          corporate.coloresStatus,
          inputs,
        ]),
    (client, signal) =>
      client.developmentFigures(inputs, corporate.coloresStatus, display, { signal }),
  );
  const figuresById = new Map((figures.data ?? []).map((f) => [f.id, f] as const));

  if (developments.isPending) return <LoadingScreen />;
  if (developments.isError) return <p role="alert">{t('home.loadFailed')}</p>;

  const totals = list.reduce(
    (acc, d, i) => {
      const counts = countByStatus(clusters[i]?.data);
      return {
        units: acc.units + d.totalUnidades,
        available: acc.available + d.unidadesDisponibles,
        sold: acc.sold + (counts.get('Vendido') ?? 0),
      };
    },
    { units: 0, available: 0, sold: 0 },
  );
  const favourites = list.filter((d) => user.desarrollosFavoritos[corporate.id]?.[d.id]);

  return (
    <div
      className={css({
        maxW: '80rem',
        mx: 'auto',
        display: 'flex',
        flexDirection: 'column',
        gap: 8,
      })}
    >
      <header>
        <h2 className={css({ fontSize: '2xl', fontWeight: 'bold', letterSpacing: '-0.01em' })}>
          {t('home.greeting', { name: user.nombre })}
        </h2>
        <p className={css({ color: 'muted', mt: 1 })}>
          {t('home.summary', { corporate: corporate.nombre })}
        </p>
      </header>

      <dl
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' },
          gap: 4,
        })}
      >
        <Stat label={t('home.developmentsCount')} value={list.length} />
        <Stat label={t('home.totalUnits')} value={totals.units} />
        <Stat label={t('home.available')} value={totals.available} />
        <Stat label={t('home.sold')} value={totals.sold} />
      </dl>

      <section aria-labelledby="favourites-title">
        <h3
          id="favourites-title"
          className={css({
            fontSize: 'lg',
            fontWeight: 'semibold',
            mb: 3,
            display: 'flex',
            alignItems: 'center',
            gap: 2,
            '& svg': { w: 5, h: 5, color: 'highlight' },
          })}
        >
          <StarIcon filled />
          {t('home.favourites')}
        </h3>
        {favourites.length === 0 ? (
          <p className={css({ color: 'muted', fontSize: 'sm' })}>{t('home.noFavourites')}</p>
        ) : (
          <ul className={css({ display: 'flex', flexWrap: 'wrap', gap: 2 })}>
            {favourites.map((d) => (
              <li key={d.id}>
                <AppLink
                  href={`${corporatePath(corporate.slug, 'desarrollos')}/${encodeURIComponent(d.slug)}`}
                  className={css({
                    display: 'inline-flex',
                    alignItems: 'center',
                    minH: 11,
                    px: 4,
                    borderRadius: 'full',
                    bg: 'surface',
                    border: '1px solid',
                    borderColor: 'border',
                    color: 'link',
                    fontWeight: 'medium',
                    textDecoration: 'none',
                    _hover: { borderColor: 'primary' },
                  })}
                >
                  {d.nombre}
                </AppLink>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="developments-title">
        <h3
          id="developments-title"
          className={css({ fontSize: 'lg', fontWeight: 'semibold', mb: 3 })}
        >
          {t('home.developments')}
        </h3>
        {list.length === 0 ? (
          <p className={css({ color: 'muted' })}>{t('home.noDevelopments')}</p>
        ) : (
          <ul
            data-testid="home-developments"
            data-figures-engine={figures.engine}
            data-figures-version={figures.version}
            className={css({
              display: 'grid',
              gridTemplateColumns: { base: '1fr', md: 'repeat(2, 1fr)', '2xl': 'repeat(3, 1fr)' },
              gap: 5,
            })}
          >
            {list.map((d) => {
              const figure = figuresById.get(d.id);
              const statuses = figure?.statuses ?? null;
              const total = (statuses ?? []).reduce((a, s) => a + s.total, 0);
              return (
                <li
                  key={d.id}
                  className={`${card()} ${css({ overflow: 'hidden', display: 'flex', flexDirection: 'column' })}`}
                >
                  <AppLink
                    href={`${corporatePath(corporate.slug, 'desarrollos')}/${encodeURIComponent(d.slug)}`}
                    aria-label={t('home.open', { name: d.nombre })}
                    className={css({
                      display: 'block',
                      aspectRatio: '16 / 7',
                      bg: 'border',
                      overflow: 'hidden',
                      _focusVisible: {
                        outline: '2px solid',
                        outlineColor: 'primary',
                        outlineOffset: '-2px',
                      },
                    })}
                  >
                    {d.imagenPortada ? (
                      <img
                        src={`/api/media/${encodeURIComponent(d.imagenPortada)}`}
                        alt=""
                        className={css({ w: '100%', h: '100%', objectFit: 'cover' })}
                      />
                    ) : null}
                  </AppLink>
                  <div
                    className={css({
                      p: 5,
                      display: 'flex',
                      flexDirection: 'column',
                      gap: 3,
                      flex: 1,
                    })}
                  >
                    <div>
                      <h4 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
                        {d.nombre}
                      </h4>
                      <p
                        className={css({
                          display: 'flex',
                          alignItems: 'center',
                          gap: 1,
                          color: 'muted',
                          fontSize: 'sm',
                          '& svg': { w: 4, h: 4 },
                        })}
                      >
                        <MapPinIcon />
                        {d.ubicacion.ciudad}, {d.ubicacion.estado}
                        {d.fechaEntrega
                          ? ` · ${t('home.delivery', { date: formatDate(d.fechaEntrega, 'monthYear') })}`
                          : ''}
                      </p>
                    </div>
                    <div
                      className={css({
                        display: 'flex',
                        justifyContent: 'space-between',
                        alignItems: 'baseline',
                        gap: 2,
                        flexWrap: 'wrap',
                      })}
                    >
                      <span className={css({ fontWeight: 'semibold', color: 'text' })}>
                        {!d.precioDesde
                          ? t('home.noPrice')
                          : figure?.priceFromText
                            ? t('home.priceFrom', { price: figure.priceFromText })
                            : '…'}
                      </span>
                      <span className={css({ fontSize: 'sm', color: 'muted' })}>
                        {t('home.availableOf', {
                          available: d.unidadesDisponibles,
                          total: d.totalUnidades,
                        })}
                      </span>
                    </div>
                    <div>
                      <p
                        className={css({
                          fontSize: 'xs',
                          fontWeight: 'semibold',
                          color: 'muted',
                          textTransform: 'uppercase',
                          letterSpacing: '0.05em',
                          mb: 2,
                        })}
                      >
                        {t('home.statusBreakdown')}
                      </p>
                      {statuses ? (
                        <>
                          <div
                            role="img"
                            aria-label={statuses.map((s) => `${s.label}: ${s.total}`).join(', ')}
                            className={css({
                              display: 'flex',
                              h: 3,
                              borderRadius: 'full',
                              overflow: 'hidden',
                              bg: 'border',
                            })}
                          >
                            {statuses.map((s) => (
                              <span
                                key={s.status}
                                style={{
                                  width: `${(s.total / Math.max(total, 1)) * 100}%`,
                                  background: s.hexColor,
                                }}
                              />
                            ))}
                          </div>
                          <ul
                            className={css({
                              display: 'flex',
                              flexWrap: 'wrap',
                              gap: 3,
                              mt: 3,
                              fontSize: 'xs',
                              color: 'muted',
                            })}
                          >
                            {statuses.map((s) => (
                              <li
                                key={s.status}
                                className={css({
                                  display: 'inline-flex',
                                  alignItems: 'center',
                                  gap: 1.5,
                                })}
                              >
                                <span
                                  aria-hidden="true"
                                  style={{ background: s.hexColor }}
                                  className={css({ w: 2.5, h: 2.5, borderRadius: 'full' })}
                                />
                                {s.label}{' '}
                                <strong className={css({ color: 'text' })}>{s.total}</strong>
                              </li>
                            ))}
                          </ul>
                        </>
                      ) : (
                        <div className={css({ h: 3, borderRadius: 'full', bg: 'border' })} />
                      )}
                    </div>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}
