/**
 * The corporate layout (`/corporativos/$corporativo`): applies the corporate's colours as CSS
 * variables, switches an English interface to Spanish for a corporate without multiIdioma, and
 * wraps every child route in the dashboard layout with `useCorporateContext()` available.
 *
 * The route resolves membership (the 403 page, an unknown corporate) and loads the corporate
 * before this renders; a signed-out visitor gets the dashboard's login prompt while the session
 * machine takes them to /login.
 */

import { useSuspenseQuery } from '@tanstack/react-query';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useDeferredValue, useEffect, useMemo, useState, type ReactNode } from 'react';
import { languageForCorporate } from '../../core/navigation';
import type { User } from '../../core/types';
import { currentLanguage, setLanguage, storedLanguage } from '../i18n';
import {
  CorporateContextProvider,
  type CorporateContextValue,
  type CurrentDevelopment,
} from './corporate-context';
import { DashboardLayout } from './dashboard-layout';
import { corporateQuery } from '../lib/corporate-access';
import { CorporateLabelsProvider } from '../lib/corporate-labels';
import { roleOf, useSession } from '../session';
import { corporateThemeStyle } from '../theme/corporate-theme';

/** `topBarEnd`: what the route puts in the top bar before the avatar (the notifications bell). */
export function CorporateLayout({ slug, topBarEnd }: { slug: string; topBarEnd?: ReactNode }) {
  const user = useSession((s) => (s.hasTag('signedIn') ? s.context.user : null));
  if (!user) return <DashboardLayout>{null}</DashboardLayout>;
  return <MemberLayout slug={slug} user={user} topBarEnd={topBarEnd} />;
}

function MemberLayout({
  slug,
  user,
  topBarEnd,
}: {
  slug: string;
  user: User;
  topBarEnd?: ReactNode;
}) {
  // Loaded by the route's loader; kept current by invalidation (live settings changes).
  const { data } = useSuspenseQuery(corporateQuery(slug));
  const [development, setDevelopment] = useState<CurrentDevelopment | null>(null);

  // A corporate without multiIdioma shows the interface in Spanish (spec §2); one with it shows
  // the user's own choice again, which the forced Spanish did not overwrite.
  useEffect(() => {
    const wanted = languageForCorporate(data, storedLanguage());
    if (wanted !== currentLanguage()) void setLanguage(wanted, { remember: false });
  }, [data]);

  // Portals (modals, toasts) live outside this subtree: the variables go on the document too.
  const colores = data.colores;
  useEffect(() => {
    const style = corporateThemeStyle(colores) as Record<string, string>;
    const root = document.documentElement.style;
    for (const [name, value] of Object.entries(style)) root.setProperty(name, value);
    return () => {
      for (const name of Object.keys(style)) root.removeProperty(name);
    };
  }, [colores]);

  const value = useMemo<CorporateContextValue>(
    () => ({ corporate: data, user, role: roleOf(user, data), development, setDevelopment }),
    [data, user, development],
  );

  // The first render of the layout and its page is one of its own, deferred: the router's store
  // renders synchronously (useSyncExternalStore), so the page a load opened was drawn in one long
  // task, the shell and the page together. Deferred, React renders it in slices of a few ms and
  // only the commit is one task; meanwhile nothing is drawn (the splash stays). It starts once
  // the router is idle: a store that changes under a sliced render makes React draw it all again
  // in one task. Only the layout's first render waits: later pages render as usual.
  const [drawn, setDrawn] = useState(false);
  const settled = useRouterState({ select: (s) => drawn || s.status === 'idle' });
  const shown = useDeferredValue(settled, false);
  useEffect(() => {
    if (shown) setDrawn(true);
  }, [shown]);
  if (!shown) return null;

  return (
    <div style={corporateThemeStyle(value.corporate.colores)} data-corporate={value.corporate.slug}>
      <CorporateContextProvider value={value}>
        {/* The corporate's own labels in the interface's language (issue 19). */}
        <CorporateLabelsProvider corporate={value.corporate.id}>
          <DashboardLayout corporate={value.corporate} role={value.role} topBarEnd={topBarEnd}>
            <Outlet />
          </DashboardLayout>
        </CorporateLabelsProvider>
      </CorporateContextProvider>
    </div>
  );
}
