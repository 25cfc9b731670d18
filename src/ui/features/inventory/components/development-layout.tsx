/**
 * The development layout (`/corporativos/$corporativo/desarrollos/$desarrollo`): loads the
 * development by its slug, names it in the top bar, shows its header (cover, logo, location,
 * favourite toggle, inventory import for administrators) and the navigation between its
 * pages, and gives them `useDevelopmentContext()`.
 */

import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { menuPages, type DevelopmentPage } from '../../../../core/development-settings';
import { mayAdministerContent } from '../../../../core/featured';
import { administersInventory } from '../../../../core/permissions';
import { AppLink } from '../../../components/app-link';
import { MapPinIcon, StarIcon } from '../../../components/icons';
import { LoadingScreen } from '../../../components/loading-screen';
import { Modal } from '../../../components/modal';
import { CsvImport } from './csv-import';
import {
  DevelopmentContextProvider,
  type DevelopmentContextValue,
} from '../../../layouts/development-context';
import { useFavouriteDevelopments } from '../api/favourites';
import { developmentPath } from '../../../lib/paths';
import {
  developmentQuery,
  effectiveStatusColors,
  filterContext,
  mediaUrl,
} from '../../../lib/catalogue';
import { makeDisplay } from '../../../lib/figures';
import { useCorporateContext, useCurrentDevelopment } from '../../../layouts/corporate-context';
import { ApiRequestError } from '../../../lib/api';
import { useDisplaySettings } from '../../../lib/display-settings';

/**
 * The navigation between the development's pages. From tablet width up the tabs wrap onto a
 * second row, so every page is in view; on a phone they scroll sideways in one row, the current
 * page scrolled into view, with the clipped edge faded to show there is more.
 */
function PagesNav({
  base,
  pathname,
  pages,
  settings,
}: {
  base: string;
  pathname: string;
  /** The development's `menu` (core/development-settings.ts `menuPages`). */
  pages: readonly DevelopmentPage[];
  /** The administrator's settings tab (issue 20), last. */
  settings: boolean;
}) {
  const { t } = useTranslation('inventory');
  const { t: tc } = useTranslation('content');
  const nav = useRef<HTMLElement>(null);
  const [more, setMore] = useState({ start: false, end: false });
  const measure = useCallback(() => {
    const el = nav.current;
    if (!el) return;
    const max = el.scrollWidth - el.clientWidth;
    const start = el.scrollLeft > 1;
    const end = max - el.scrollLeft > 1;
    setMore((m) => (m.start === start && m.end === end ? m : { start, end }));
  }, []);
  useLayoutEffect(() => {
    const el = nav.current;
    const active = el?.querySelector<HTMLElement>('[aria-current="page"]');
    if (el && active && el.scrollWidth > el.clientWidth) {
      const offset = active.getBoundingClientRect().left - el.getBoundingClientRect().left;
      el.scrollLeft += offset - (el.clientWidth - active.offsetWidth) / 2;
    }
    measure();
  }, [pathname, measure]);
  useEffect(() => {
    const el = nav.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure]);
  return (
    <nav
      ref={nav}
      aria-label={t('development.pagesNav')}
      onScroll={measure}
      data-more-start={more.start}
      data-more-end={more.end}
      className={css({
        overflowX: 'auto',
        bg: 'surface',
        borderRadius: 'xl',
        border: '1px solid token(colors.border)',
        scrollbarWidth: 'thin',
        '&[data-more-end="true"]': {
          maskImage: 'linear-gradient(to right, black calc(100% - 3rem), transparent)',
        },
        '&[data-more-start="true"]': {
          maskImage: 'linear-gradient(to left, black calc(100% - 3rem), transparent)',
        },
        '&[data-more-start="true"][data-more-end="true"]': {
          maskImage:
            'linear-gradient(to right, transparent, black 3rem, black calc(100% - 3rem), transparent)',
        },
      })}
    >
      <ul
        className={css({
          display: 'flex',
          flexWrap: { base: 'nowrap', md: 'wrap' },
          gap: 1,
          listStyle: 'none',
          p: 1,
          w: { base: 'max-content', md: 'auto' },
          minW: '100%',
        })}
      >
        {[...pages, ...(settings ? (['ajustes'] as const) : [])].map((page) => {
          const href = `${base}/${page}`;
          const active =
            pathname === href || (page === 'comparador' && pathname === `${base}/comparar`);
          return (
            <li key={page}>
              <AppLink
                href={href}
                aria-current={active ? 'page' : undefined}
                className={css({
                  display: 'block',
                  px: 3,
                  py: 2,
                  borderRadius: 'lg',
                  fontSize: 'sm',
                  whiteSpace: 'nowrap',
                  color: 'text',
                  textDecoration: 'none',
                  // Hover tints the other tabs only (the active one kept white on near-white),
                  // and only where a pointer hovers: a tapped tab on a touch screen stayed grey.
                  '@media (hover: hover)': {
                    '&:not([aria-current="page"]):hover': { bg: 'rgba(0,0,0,0.04)' },
                  },
                  _focusVisible: {
                    outline: '2px solid',
                    outlineColor: 'primary',
                    outlineOffset: '-2px',
                  },
                  '&[aria-current="page"]': {
                    bg: 'primary',
                    color: 'primaryText',
                    fontWeight: 'semibold',
                  },
                })}
              >
                {page === 'ajustes' ? tc('settings.tab') : t(`pages.${page}`)}
              </AppLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function DevelopmentLayout({
  corporateSlug: corporativo,
  developmentSlug: desarrollo,
}: {
  corporateSlug: string;
  developmentSlug: string;
}) {
  const { t } = useTranslation('inventory');
  const { corporate, user, role } = useCorporateContext();
  const { currency, areaUnit } = useDisplaySettings();
  const query = useQuery(developmentQuery(corporate.id, desarrollo));
  const development = query.data;
  useCurrentDevelopment(development);
  const favourites = useFavouriteDevelopments(user, corporate.id);
  const [importing, setImporting] = useState(false);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const canAdminister = administersInventory(role);

  const value = useMemo<DevelopmentContextValue | null>(() => {
    if (!development) return null;
    return {
      corporate,
      development,
      user,
      role,
      display: makeDisplay(corporate.divisa, currency, areaUnit),
      colors: effectiveStatusColors(corporate, development),
      ctx: filterContext(corporate, development),
      canAdminister,
    };
  }, [corporate, development, user, role, currency, areaUnit, canAdminister]);

  if (query.isError) {
    const notFound = query.error instanceof ApiRequestError && query.error.status === 404;
    return (
      <p role="alert" className={css({ p: 8, textAlign: 'center', fontSize: 'lg' })}>
        {notFound ? t('development.notFound') : t('development.loadFailed')}
      </p>
    );
  }
  if (!value || !development) return <LoadingScreen />;

  const favourite = favourites.isFavourite(development.id);
  const base = developmentPath(corporativo, desarrollo);
  return (
    <DevelopmentContextProvider value={value}>
      <div
        className={css({
          display: 'flex',
          flexDirection: 'column',
          gap: 4,
          maxW: '120rem',
          mx: 'auto',
        })}
      >
        <header
          className={css({
            position: 'relative',
            borderRadius: 'xl',
            overflow: 'hidden',
            minH: '8.5rem',
            display: 'flex',
            alignItems: 'flex-end',
            bg: 'sidebar',
            color: 'white',
          })}
        >
          {development.imagenPortada ? (
            <img
              src={mediaUrl(development.imagenPortada)}
              alt=""
              // The page's largest content on every development page (the server preloads it
              // at this priority: http/signed-in-preloads.ts).
              fetchPriority="high"
              className={css({
                position: 'absolute',
                inset: 0,
                w: '100%',
                h: '100%',
                objectFit: 'cover',
              })}
            />
          ) : null}
          <div
            aria-hidden="true"
            className={css({
              position: 'absolute',
              inset: 0,
              bgGradient: 'to-t',
              gradientFrom: 'rgba(8,16,28,0.85)',
              gradientTo: 'rgba(8,16,28,0.1)',
            })}
          />
          <div
            className={css({
              position: 'relative',
              display: 'flex',
              alignItems: 'center',
              gap: 4,
              p: 5,
              w: '100%',
              flexWrap: 'wrap',
            })}
          >
            {development.imagenLogo ? (
              <img
                src={mediaUrl(development.imagenLogo)}
                alt={t('development.logo', { name: development.nombre })}
                className={css({
                  w: 16,
                  h: 16,
                  borderRadius: 'lg',
                  bg: 'white',
                  p: 1,
                  objectFit: 'contain',
                })}
              />
            ) : null}
            <div className={css({ flex: 1, minW: '12rem' })}>
              <h2 className={css({ fontSize: '2xl', fontWeight: 'bold', lineHeight: 1.2 })}>
                {development.nombre}
              </h2>
              <p
                className={css({
                  display: 'flex',
                  alignItems: 'center',
                  gap: 1,
                  fontSize: 'sm',
                  opacity: 0.9,
                  '& svg': { w: 4, h: 4 },
                })}
              >
                <MapPinIcon />
                {development.ubicacion.direccion}, {development.ubicacion.ciudad},{' '}
                {development.ubicacion.estado}
              </p>
            </div>
            <button
              type="button"
              aria-pressed={favourite}
              disabled={favourites.pending}
              onClick={() => favourites.toggle(development.id)}
              className={css({
                display: 'inline-flex',
                alignItems: 'center',
                gap: 2,
                h: 10,
                px: 4,
                borderRadius: 'full',
                bg: 'rgba(255,255,255,0.15)',
                color: 'white',
                fontSize: 'sm',
                fontWeight: 'semibold',
                cursor: 'pointer',
                '& svg': { w: 5, h: 5 },
                '&[aria-pressed="true"] svg': { color: 'highlight' },
                _hover: { bg: 'rgba(255,255,255,0.25)' },
              })}
            >
              <StarIcon filled={favourite} />
              {favourite ? t('favourites.remove') : t('favourites.add')}
            </button>
            {canAdminister ? (
              <button
                type="button"
                onClick={() => setImporting(true)}
                className={css({
                  h: 10,
                  px: 4,
                  borderRadius: 'full',
                  bg: 'white',
                  color: 'text',
                  fontSize: 'sm',
                  fontWeight: 'semibold',
                  cursor: 'pointer',
                })}
              >
                {t('import.open')}
              </button>
            ) : null}
          </div>
        </header>
        <PagesNav
          base={base}
          pathname={pathname}
          pages={menuPages(development)}
          settings={mayAdministerContent(role)}
        />
        <Outlet />
      </div>
      {importing ? (
        <Modal
          title={t('import.title', { name: development.nombre })}
          onClose={() => setImporting(false)}
        >
          <CsvImport idCorporativo={corporate.id} idDesarrollo={development.id} />
        </Modal>
      ) : null}
    </DevelopmentContextProvider>
  );
}
