/**
 * The dashboard layout (spec §2): sidebar + top bar + content on desktop, the bottom navigation
 * bar below 1024 px. The content shows only for a signed-in user; while the session is being
 * checked a loading screen, and to anyone else a login prompt.
 */

import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import type { Corporate, Role } from '../../core/types';
import { LoadingScreen } from '../components/loading-screen';
import { LoginPrompt } from '../components/login-prompt';
import { SelectCorporateModal } from '../components/select-corporate-modal';
import { SettingsModal } from '../components/settings-modal';
import { CONTENT_ID, SkipLink } from '../components/skip-link';
import { useSession } from '../session';
import { TopBarSlotProvider } from './corporate-context';
import { BottomNav, Sidebar } from './navigation';
import { TopBar } from './top-bar';

type Dialog = 'settings' | 'switch' | null;

export function DashboardLayout({
  corporate = null,
  role = null,
  topBarEnd,
  children,
}: {
  corporate?: Corporate | null;
  role?: Role | null;
  /** What the top bar shows before the avatar (the notifications bell). */
  topBarEnd?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation('shell');
  const signedIn = useSession((s) => s.hasTag('signedIn'));
  const checking = useSession((s) => s.hasTag('checking') || s.hasTag('busy'));
  const [dialog, setDialog] = useState<Dialog>(null);
  // The same props from render to render: the sidebar and the bottom bar (memo) are not drawn
  // again each time the page below them is (as its data arrives).
  const nav = useMemo(
    () => ({
      corporate,
      role,
      onOpenSettings: () => setDialog('settings'),
      onOpenSwitch: () => setDialog('switch'),
    }),
    [corporate, role],
  );

  if (!signedIn)
    return checking ? (
      <LoadingScreen fullScreen message={t('session.checking')} />
    ) : (
      <LoginPrompt />
    );

  return (
    <TopBarSlotProvider>
      <SkipLink />
      <div className={css({ display: 'flex', minH: '100dvh', bg: 'bg', color: 'text' })}>
        <Sidebar {...nav} />
        <div className={css({ flex: 1, minW: 0, display: 'flex', flexDirection: 'column' })}>
          <TopBar corporate={corporate} end={topBarEnd} />
          <main
            id={CONTENT_ID}
            tabIndex={-1}
            className={css({
              flex: 1,
              p: { base: 4, md: 6, xl: 8 },
              // Every width that shows the bottom bar (below lg) keeps its room: md's `p` would
              // otherwise win over the base `pb` at tablet widths and hide the page's end.
              pb: { base: '96px', md: '96px', lg: 8 },
              // The chat bubble (features/chat marks the page with data-chat-bubble while it
              // shows) floats over the content's bottom right corner. The page's end keeps room
              // to scroll the last rows above it (its top is 148 px over the screen's bottom
              // below lg, 80 px from lg), and from md up the right edge keeps its width (24 px
              // from the edge, 56 px wide), so no amount or button of the last column is under it.
              '[data-chat-bubble] &': {
                pb: { base: '164px', md: '164px', lg: '96px' },
                pr: { md: '88px' },
                // At tablet widths (md to lg) the strip takes 64 of the content's 772 px at 820:
                // a page that cannot spare them (the users page's five columns and three
                // filters) marks itself data-chat-strip="lg" and keeps the strip only from lg;
                // below, its right edge may pass under the bubble while scrolling, as on a
                // phone, and its end still scrolls clear of it.
                '&:has([data-chat-strip="lg"])': { pr: { md: 6, lg: '88px' } },
              },
              _focus: { outline: 'none' },
            })}
          >
            {children}
          </main>
        </div>
        <BottomNav {...nav} />
      </div>
      {dialog === 'settings' ? (
        <SettingsModal corporate={corporate} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === 'switch' ? (
        <SelectCorporateModal currentSlug={corporate?.slug} onClose={() => setDialog(null)} />
      ) : null}
    </TopBarSlotProvider>
  );
}
