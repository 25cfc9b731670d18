/**
 * `/corporativos/{slug}/destacados` (spec §1 route `destacados`, §3 featured developments
 * `items`): the corporate's featured developments as the developments list's cards, in the
 * document's order. The corporate's administrator (core/featured.ts `mayAdministerContent`; the
 * server checks it again) picks and orders them below.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { featuredInOrder, mayAdministerContent } from '../../../../core/featured';
import { developmentsForApp } from '../../../../core/filters';
import { LoadingScreen } from '../../../components/loading-screen';
import { button, card } from '../../../components/styles';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { developmentsQuery, type DevelopmentSummary } from '../../../lib/catalogue';
import { useDisplaySettings } from '../../../lib/display-settings';
import { makeDisplay } from '../../../lib/figures';
import { toast } from '../../../lib/toast';
import { useFavouriteDevelopments } from '../api/favourites';
import { DevelopmentCard, useDevelopmentFigures } from './developments-page';
import { featuredQuery, useSaveFeatured } from '../../../lib/content';

const grid = css({
  display: 'grid',
  gap: 4,
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(19rem, 100%), 1fr))',
  listStyle: 'none',
  p: 0,
});

export function FeaturedPage() {
  const { t } = useTranslation('content');
  const { corporate, user, role } = useCorporateContext();
  const { currency, areaUnit } = useDisplaySettings();
  const display = useMemo(
    () => makeDisplay(corporate.divisa, currency, areaUnit),
    [corporate.divisa, currency, areaUnit],
  );
  const developments = useQuery(developmentsQuery(corporate.id));
  const featuredDoc = useQuery(featuredQuery(corporate.id));
  const favourites = useFavouriteDevelopments(user, corporate.id);
  const list = useMemo(() => developmentsForApp(developments.data ?? []), [developments.data]);
  const figures = useDevelopmentFigures(list, display);

  if (developments.isPending || featuredDoc.isPending) return <LoadingScreen />;
  if (developments.isError || featuredDoc.isError)
    return <p role="alert">{t('featured.loadFailed')}</p>;
  const featured = featuredInOrder(featuredDoc.data, list);

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
      <h2 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{t('featured.title')}</h2>
      {featured.length === 0 ? (
        <p className={css({ color: 'muted' })}>{t('featured.none')}</p>
      ) : (
        <ul className={grid} data-testid="featured-list" {...figures.marks}>
          {featured.map((d) => (
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
      )}
      {mayAdministerContent(role) ? (
        <FeaturedEditor
          corporateId={corporate.id}
          developments={list}
          items={featuredDoc.data.items}
        />
      ) : null}
    </div>
  );
}

function FeaturedEditor({
  corporateId,
  developments,
  items,
}: {
  corporateId: string;
  developments: DevelopmentSummary[];
  items: string[];
}) {
  const { t } = useTranslation('content');
  const save = useSaveFeatured(corporateId);
  const [draft, setDraft] = useState<string[]>(items);
  const titleId = useId();
  useEffect(() => setDraft(items), [items]);
  const byId = new Map(developments.map((d) => [d.id, d]));
  const chosen = draft.filter((id) => byId.has(id));
  const others = developments.filter((d) => !draft.includes(d.id));
  const move = (i: number, by: -1 | 1) => {
    const next = chosen.slice();
    const [it] = next.splice(i, 1);
    next.splice(i + by, 0, it!);
    setDraft(next);
  };
  const row = css({
    display: 'flex',
    alignItems: 'center',
    gap: 2,
    flexWrap: 'wrap',
    py: 2,
    borderBottomWidth: '1px',
    borderColor: 'border',
  });
  const small = button({ variant: 'ghost' });
  return (
    <section
      aria-labelledby={titleId}
      className={`${card()} ${css({ p: { base: 4, md: 6 }, display: 'flex', flexDirection: 'column', gap: 3 })}`}
    >
      <h2 id={titleId} className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
        {t('featured.editTitle')}
      </h2>
      <p className={css({ color: 'muted' })}>{t('featured.editIntro')}</p>
      <ol aria-label={t('featured.chosen')} className={css({ listStyle: 'none', p: 0 })}>
        {chosen.map((id, i) => (
          <li key={id} className={row} data-featured-item={byId.get(id)!.slug}>
            <span className={css({ flex: '1', minW: '10rem', fontWeight: 'semibold' })}>
              {i + 1}. {byId.get(id)!.nombre}
            </span>
            <button
              type="button"
              className={small}
              disabled={i === 0}
              onClick={() => move(i, -1)}
              aria-label={t('featured.up', { nombre: byId.get(id)!.nombre })}
            >
              ↑
            </button>
            <button
              type="button"
              className={small}
              disabled={i === chosen.length - 1}
              onClick={() => move(i, 1)}
              aria-label={t('featured.down', { nombre: byId.get(id)!.nombre })}
            >
              ↓
            </button>
            <button
              type="button"
              className={small}
              onClick={() => setDraft(chosen.filter((x) => x !== id))}
              aria-label={t('featured.remove', { nombre: byId.get(id)!.nombre })}
            >
              {t('featured.removeShort')}
            </button>
          </li>
        ))}
      </ol>
      {others.length > 0 ? (
        <ul aria-label={t('featured.others')} className={css({ listStyle: 'none', p: 0 })}>
          {others.map((d) => (
            <li key={d.id} className={row}>
              <span className={css({ flex: '1', minW: '10rem' })}>{d.nombre}</span>
              <button
                type="button"
                className={small}
                onClick={() => setDraft([...chosen, d.id])}
                aria-label={t('featured.add', { nombre: d.nombre })}
              >
                {t('featured.addShort')}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div>
        <button
          type="button"
          className={button({ variant: 'primary' })}
          disabled={save.isPending}
          onClick={() =>
            save.mutate(chosen, { onSuccess: () => toast.success(t('featured.saved')) })
          }
        >
          {t('featured.save')}
        </button>
      </div>
    </section>
  );
}
