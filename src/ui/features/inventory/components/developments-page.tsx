/**
 * The developments list (`/corporativos/$corporativo/desarrollos`): enApp developments by
 * `orden`, those without units hidden (`ocultarDesarrollosSinUnidades=si`), featured ones
 * first, a search by text, search tags and categories, and the favourite toggle.
 */

import { useId, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { featuredInOrder } from '../../../../core/featured';
import { developmentsForApp } from '../../../../core/filters';
import { normalizeSearchText } from '../../../../core/lead';
import { AppLink } from '../../../components/app-link';
import { MapPinIcon, StarIcon } from '../../../components/icons';
import { LoadingScreen } from '../../../components/loading-screen';
import { card } from '../../../components/styles';
import { featuredQuery } from '../../../lib/content';
import { useFavouriteDevelopments } from '../api/favourites';
import { developmentPath } from '../../../lib/paths';
import {
  developmentsQuery,
  mediaUrl,
  searchCategoriesQuery,
  searchTagsQuery,
  type DevelopmentSummary,
} from '../../../lib/catalogue';
import { makeDisplay, type Display } from '../../../lib/figures';
import type { DevelopmentFigures } from '../../../../core/display-rows';
import { useCoreFigures } from '../../../lib/use-core-figures';
import { useLiveStream } from '../../../lib/live-stream';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { TopBarActions, useCorporateContext } from '../../../layouts/corporate-context';
import { useDisplaySettings } from '../../../lib/display-settings';

/**
 * The figures of the developments' cards — price from and rent in the chosen currency — built by
 * the core worker (issue 20, the card's worker), again on a currency change. `engine` and
 * `version` are marked on the list for the tests.
 */
export function useDevelopmentFigures(list: readonly DevelopmentSummary[], display: Display) {
  const inputs = list.map((d) => ({
    id: d.id,
    precioDesde: d.precioDesde ?? null,
    precioRentaDesde: d.precioRentaDesde ?? null,
    divisa: d.divisa ?? null,
  }));
  const key =
    list.length === 0
      ? null
      : JSON.stringify([display.currency.codigo, display.currencies, display.areaUnit, inputs]);
  const figures = useCoreFigures(key, (client, signal) =>
    client.developmentFigures(inputs, {}, display, { signal }),
  );
  const byId = useMemo(
    () => new Map((figures.data ?? []).map((f) => [f.id, f] as const)),
    [figures.data],
  );
  return {
    byId,
    marks: { 'data-figures-engine': figures.engine, 'data-figures-version': figures.version },
  };
}

/** A development's card (also the `destacados` page's). */
export function DevelopmentCard({
  d,
  slug,
  figures,
  favourite,
  onToggle,
}: {
  d: DevelopmentSummary;
  slug: string;
  /** Its price from and rent as shown, from the core worker; undefined until they arrive. */
  figures: DevelopmentFigures | undefined;
  favourite: boolean;
  onToggle: () => void;
}) {
  const { t } = useTranslation('inventory');
  const corporateLabel = useCorporateLabel();
  const href = developmentPath(slug, d.slug, 'presentacion');
  return (
    <li
      className={`${card()} ${css({ overflow: 'hidden', display: 'flex', flexDirection: 'column', position: 'relative' })}`}
      data-development={d.slug}
    >
      <AppLink
        href={href}
        aria-label={t('list.open', { name: d.nombre })}
        className={css({
          display: 'block',
          aspectRatio: '16 / 8',
          bg: 'border',
          overflow: 'hidden',
        })}
      >
        {d.imagenPortada ? (
          <img
            src={mediaUrl(d.imagenPortada)}
            alt=""
            className={css({ w: '100%', h: '100%', objectFit: 'cover' })}
          />
        ) : null}
      </AppLink>
      <button
        type="button"
        aria-pressed={favourite}
        aria-label={
          favourite
            ? t('favourites.removeNamed', { name: d.nombre })
            : t('favourites.addNamed', { name: d.nombre })
        }
        onClick={onToggle}
        className={css({
          position: 'absolute',
          top: 3,
          right: 3,
          display: 'grid',
          placeItems: 'center',
          w: 10,
          h: 10,
          borderRadius: 'full',
          bg: 'rgba(255,255,255,0.92)',
          color: 'muted',
          cursor: 'pointer',
          boxShadow: '0 2px 6px rgba(0,0,0,0.15)',
          '& svg': { w: 5, h: 5 },
          '&[aria-pressed="true"]': { color: 'highlight' },
        })}
      >
        <StarIcon filled={favourite} />
      </button>
      <div className={css({ p: 4, display: 'flex', flexDirection: 'column', gap: 2, flex: 1 })}>
        <div className={css({ display: 'flex', alignItems: 'center', gap: 3 })}>
          {d.imagenLogo ? (
            <img
              src={mediaUrl(d.imagenLogo)}
              alt={t('development.logo', { name: d.nombre })}
              className={css({
                w: 11,
                h: 11,
                borderRadius: 'md',
                border: '1px solid token(colors.border)',
                objectFit: 'contain',
              })}
            />
          ) : null}
          <div>
            <h3 className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
              <AppLink
                href={href}
                className={css({
                  color: 'text',
                  textDecoration: 'none',
                  _hover: { color: 'link' },
                })}
              >
                {d.nombre}
              </AppLink>
            </h3>
            <p
              className={css({
                display: 'flex',
                alignItems: 'center',
                gap: 1,
                fontSize: 'sm',
                color: 'muted',
                '& svg': { w: 4, h: 4 },
              })}
            >
              <MapPinIcon />
              {d.ubicacion.ciudad}, {d.ubicacion.estado}
            </p>
          </div>
        </div>
        <p className={css({ fontWeight: 'semibold' })} data-testid="price-from">
          {!d.precioDesde
            ? t('list.noPrice')
            : figures?.priceFromText
              ? t('list.priceFromValue', { price: figures.priceFromText })
              : '…'}
        </p>
        {figures?.rentText ? (
          <p className={css({ fontSize: 'sm', fontWeight: 'medium' })} data-testid="rent-from">
            {t('list.rentFromValue', { price: figures.rentText })}
          </p>
        ) : null}
        <p className={css({ fontSize: 'sm', color: 'muted' })}>
          {t('presentation.availableOf', {
            available: d.unidadesDisponibles,
            total: d.totalUnidades,
          })}
        </p>
        {d.tagsEtapaEntrega.length > 0 ? (
          <ul
            aria-label={t('list.stages')}
            className={css({ display: 'flex', flexWrap: 'wrap', gap: 1.5, mt: 'auto', pt: 1 })}
          >
            {d.tagsEtapaEntrega.map((tag) => (
              <li
                key={tag}
                className={css({
                  px: 2.5,
                  py: 0.5,
                  borderRadius: 'full',
                  bg: 'rgba(11,107,203,0.1)',
                  color: 'link',
                  fontSize: 'xs',
                  fontWeight: 'semibold',
                })}
              >
                {corporateLabel('etapa', tag)}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </li>
  );
}

/**
 * The developments list page. `actions` go in the top bar (the route puts the quotation report
 * button there, spec §2).
 */
export function DevelopmentsPage({ actions }: { actions?: ReactNode }) {
  const { t } = useTranslation('inventory');
  const { corporate, user } = useCorporateContext();
  const { currency, areaUnit } = useDisplaySettings();
  const display = useMemo(
    () => makeDisplay(corporate.divisa, currency, areaUnit),
    [corporate.divisa, currency, areaUnit],
  );
  useLiveStream();
  const developments = useQuery(developmentsQuery(corporate.id));
  const tags = useQuery(searchTagsQuery(corporate.id));
  const categories = useQuery(searchCategoriesQuery(corporate.id));
  // Categories and tags in the corporate's words for the interface's language (issue 19).
  const corporateLabel = useCorporateLabel();
  const favourites = useFavouriteDevelopments(user, corporate.id);
  const [text, setText] = useState('');
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [category, setCategory] = useState('');
  const searchId = useId();
  const categoryId = useId();

  const list = useMemo(() => developmentsForApp(developments.data ?? []), [developments.data]);
  const visibleTags = (tags.data ?? []).filter((tag) => !category || tag.idCategoria === category);
  const shown = useMemo(() => {
    const q = normalizeSearchText(text);
    return list.filter(
      (d) =>
        (!q ||
          normalizeSearchText(
            `${d.nombre} ${d.nombreCorto} ${d.ubicacion.ciudad} ${d.ubicacion.estado}`,
          ).includes(q)) &&
        (!category || d.categorias.includes(category)) &&
        tagIds.every((id) => d.tagsBusqueda.includes(id)),
    );
  }, [list, text, category, tagIds]);
  // The featured block reads the corporate's featured-developments document, in its order
  // (issue 20; the per-development flag it replaced is gone).
  const featuredDoc = useQuery(featuredQuery(corporate.id));
  const featured = featuredInOrder(featuredDoc.data, shown);
  const figures = useDevelopmentFigures(list, display);

  if (developments.isPending) return <LoadingScreen />;
  if (developments.isError) return <p role="alert">{t('list.loadFailed')}</p>;

  const cards = (items: DevelopmentSummary[]) => (
    <ul
      {...figures.marks}
      className={css({
        display: 'grid',
        gap: 4,
        gridTemplateColumns: 'repeat(auto-fill, minmax(19rem, 1fr))',
      })}
    >
      {items.map((d) => (
        <DevelopmentCard
          key={d.id}
          d={d}
          slug={corporate.slug}
          figures={figures.byId.get(d.id)}
          favourite={favourites.isFavourite(d.id)}
          onToggle={() => favourites.toggle(d.id)}
        />
      ))}
    </ul>
  );
  return (
    <div
      className={css({
        display: 'flex',
        flexDirection: 'column',
        gap: 6,
        maxW: '100rem',
        mx: 'auto',
      })}
    >
      {actions ? <TopBarActions>{actions}</TopBarActions> : null}
      <section
        role="search"
        className={`${card()} ${css({ p: 4, display: 'flex', flexDirection: 'column', gap: 3 })}`}
        aria-label={t('list.search')}
      >
        <div className={css({ display: 'flex', gap: 3, flexWrap: 'wrap' })}>
          <div
            className={css({
              flex: 1,
              minW: '14rem',
              display: 'flex',
              flexDirection: 'column',
              gap: 1,
            })}
          >
            <label htmlFor={searchId} className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
              {t('list.search')}
            </label>
            <input
              id={searchId}
              type="search"
              value={text}
              placeholder={t('list.searchPlaceholder')}
              onChange={(e) => setText(e.target.value)}
              className={css({
                h: 10,
                px: 3,
                borderRadius: 'md',
                border: '1px solid token(colors.border)',
              })}
            />
          </div>
          <div className={css({ display: 'flex', flexDirection: 'column', gap: 1 })}>
            <label htmlFor={categoryId} className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
              {t('list.category')}
            </label>
            <select
              id={categoryId}
              value={category}
              onChange={(e) => {
                setCategory(e.target.value);
                setTagIds([]);
              }}
              className={css({
                h: 10,
                px: 2,
                borderRadius: 'md',
                border: '1px solid token(colors.border)',
                bg: 'surface',
                minW: '12rem',
              })}
            >
              <option value="">{t('list.allCategories')}</option>
              {(categories.data ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {corporateLabel('categoria', c.nombre)}
                </option>
              ))}
            </select>
          </div>
        </div>
        {visibleTags.length > 0 ? (
          <div
            role="group"
            aria-label={t('list.tags')}
            className={css({ display: 'flex', flexWrap: 'wrap', gap: 1.5 })}
          >
            {visibleTags.map((tag) => (
              <button
                key={tag.id}
                type="button"
                aria-pressed={tagIds.includes(tag.id)}
                onClick={() =>
                  setTagIds((ids) =>
                    ids.includes(tag.id) ? ids.filter((i) => i !== tag.id) : [...ids, tag.id],
                  )
                }
                className={css({
                  px: 3,
                  h: 8,
                  borderRadius: 'full',
                  border: '1px solid token(colors.border)',
                  bg: 'surface',
                  fontSize: 'sm',
                  cursor: 'pointer',
                  '&[aria-pressed="true"]': {
                    bg: 'primary',
                    color: 'primaryText',
                    borderColor: 'primary',
                  },
                })}
              >
                {corporateLabel('tag', tag.nombre)}
              </button>
            ))}
          </div>
        ) : null}
      </section>
      {featured.length > 0 ? (
        <section
          aria-labelledby="featured-title"
          className={css({ display: 'flex', flexDirection: 'column', gap: 3 })}
        >
          <h2 id="featured-title" className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
            {t('list.featured')}
          </h2>
          {cards(featured)}
        </section>
      ) : null}
      <section
        aria-labelledby="all-title"
        className={css({ display: 'flex', flexDirection: 'column', gap: 3 })}
      >
        <h2 id="all-title" className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
          {t('list.all', { count: shown.length })}
        </h2>
        {shown.length === 0 ? (
          <p className={css({ color: 'muted' })}>{t('list.none')}</p>
        ) : (
          cards(shown)
        )}
      </section>
    </div>
  );
}
