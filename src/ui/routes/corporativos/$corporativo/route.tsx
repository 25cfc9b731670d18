/**
 * The corporate layout (`/corporativos/$corporativo`): loads the corporate by its slug (loading
 * screen meanwhile), applies its colours as CSS variables, switches an English interface to
 * Spanish for a corporate without multiIdioma, and wraps every child route in the dashboard
 * layout with `useCorporateContext()` available. A non-member gets the 403 page with the
 * corporate switch; an unknown slug 'No se encontró corporativo'.
 */

import { useQuery } from '@tanstack/react-query';
import { Outlet, createFileRoute } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { languageForCorporate } from '../../../../core/navigation';
import type { Corporate } from '../../../../core/types';
import { LoadingScreen } from '../../../components/loading-screen';
import { SelectCorporateModal } from '../../../components/select-corporate-modal';
import { button } from '../../../components/styles';
import { currentLanguage, setLanguage, storedLanguage } from '../../../i18n';
import {
  CorporateContextProvider,
  type CorporateContextValue,
  type CurrentDevelopment,
} from '../../../layouts/corporate-context';
import { DashboardLayout } from '../../../layouts/dashboard-layout';
import { ApiRequestError, apiQuery } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { roleOf, useSession } from '../../../session';
import { corporateThemeStyle } from '../../../theme/corporate-theme';

function Forbidden({ slug }: { slug: string }) {
  const { t } = useTranslation('shell');
  const [open, setOpen] = useState(true);
  return (
    <DashboardLayout>
      <section
        className={css({ maxW: '32rem', mx: 'auto', mt: { base: 6, md: 16 }, textAlign: 'center' })}
      >
        <p className={css({ fontSize: '6xl', fontWeight: 'bold', color: 'border', lineHeight: 1 })}>
          403
        </p>
        <h2 className={css({ fontSize: 'xl', fontWeight: 'semibold', mt: 4, mb: 2 })}>
          {t('forbidden.title')}
        </h2>
        <p className={css({ color: 'muted', mb: 6 })}>{t('forbidden.body')}</p>
        <button type="button" className={button()} onClick={() => setOpen(true)}>
          {t('forbidden.choose')}
        </button>
      </section>
      {open ? <SelectCorporateModal currentSlug={slug} onClose={() => setOpen(false)} /> : null}
    </DashboardLayout>
  );
}

function Failure({ error }: { error: Error }) {
  const { t } = useTranslation('errors');
  const notFound = error instanceof ApiRequestError && error.status === 404;
  return (
    <DashboardLayout>
      <p
        role="alert"
        className={css({ maxW: '32rem', mx: 'auto', mt: 16, textAlign: 'center', fontSize: 'lg' })}
      >
        {notFound ? t('corporateNotFound') : errorMessage(error)}
      </p>
    </DashboardLayout>
  );
}

function CorporateLayout() {
  const { corporativo } = Route.useParams();
  const signedIn = useSession((s) => s.hasTag('signedIn'));
  const user = useSession((s) => s.context.user);
  const corporate = useQuery({
    ...apiQuery<Corporate>('wsObtenerCorporativo', { slug: corporativo }),
    enabled: signedIn,
  });
  const [development, setDevelopment] = useState<CurrentDevelopment | null>(null);
  const data = corporate.data;

  // A corporate without multiIdioma shows the interface in Spanish (spec §2); one with it shows
  // the user's own choice again, which the forced Spanish did not overwrite.
  useEffect(() => {
    if (!data) return;
    const wanted = languageForCorporate(data, storedLanguage());
    if (wanted !== currentLanguage()) void setLanguage(wanted, { remember: false });
  }, [data]);

  // Portals (modals, toasts) live outside this subtree: the variables go on the document too.
  const colores = data?.colores;
  useEffect(() => {
    const style = corporateThemeStyle(colores) as Record<string, string>;
    const root = document.documentElement.style;
    for (const [name, value] of Object.entries(style)) root.setProperty(name, value);
    return () => {
      for (const name of Object.keys(style)) root.removeProperty(name);
    };
  }, [colores]);

  const value = useMemo<CorporateContextValue | null>(
    () =>
      data && user
        ? { corporate: data, user, role: roleOf(user, data), development, setDevelopment }
        : null,
    [data, user, development],
  );

  if (!signedIn) return <DashboardLayout>{null}</DashboardLayout>;
  if (corporate.error) {
    return corporate.error instanceof ApiRequestError && corporate.error.status === 403 ? (
      <Forbidden slug={corporativo} />
    ) : (
      <Failure error={corporate.error} />
    );
  }
  if (!value) return <LoadingScreen fullScreen />;

  return (
    <div style={corporateThemeStyle(value.corporate.colores)} data-corporate={value.corporate.slug}>
      <CorporateContextProvider value={value}>
        <DashboardLayout corporate={value.corporate} role={value.role}>
          <Outlet />
        </DashboardLayout>
      </CorporateContextProvider>
    </div>
  );
}

export const Route = createFileRoute('/corporativos/$corporativo')({ component: CorporateLayout });
