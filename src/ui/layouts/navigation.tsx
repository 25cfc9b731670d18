/**
 * The sidebar (desktop, ≥ 1024 px) and the bottom navigation bar (below 1024 px): the same
 * items, from `sidebarItems` of core/navigation, each 90 px wide in the sidebar.
 */

import { useRouterState } from '@tanstack/react-router';
import { memo, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from 'styled-system/css';
import {
  activeSidebarItem,
  corporatePath,
  homePath,
  OPERATIONS_PATH,
  sidebarItems,
  type SidebarItem,
} from '../../core/navigation';
import { mayOperate, seesAllLeads } from '../../core/permissions';
import type { Corporate, Role } from '../../core/types';
import { AppLink } from '../components/app-link';
import { CorporateLogo } from '../components/corporate-logo';
import {
  BuildingIcon,
  CalendarIcon,
  ClientsIcon,
  CogIcon,
  HomeIcon,
  LogoutIcon,
  MoreIcon,
  PulseIcon,
  SwitchIcon,
  UserPlusIcon,
  UsersIcon,
} from '../components/icons';
import { useClientsLabel } from '../lib/corporate-labels';
import { useSession, useSessionActor } from '../session';
import { useWalkInTarget } from './walk-in-picker';

export interface NavProps {
  corporate: Corporate | null;
  role: Role | null;
  onOpenSettings: () => void;
  onOpenSwitch: () => void;
}

interface NavEntry {
  id: SidebarItem;
  label: string;
  /**
   * The label of the bottom bar, where up to seven items share a phone's width: the `nav.short`
   * name, the sidebar's word or a shorter one (Clientes for a corporate's "Mis clientes", whose
   * full name stays the item's accessible name).
   */
  short: string;
  icon: ReactNode;
  href?: string;
  onClick?: () => void;
}

function useNavEntries({ corporate, role, onOpenSettings, onOpenSwitch }: NavProps): {
  entries: NavEntry[];
  active: SidebarItem | null;
  /** The walk-in registration's development picker, while open. */
  picker: ReactNode;
} {
  const { t } = useTranslation('shell');
  const session = useSessionActor();
  const user = useSession((s) => s.context.user);
  const corporates = useSession((s) => s.context.corporates);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const items = sidebarItems({
    role,
    corporateCount: user?.corporativos.length ?? 0,
    inCorporate: Boolean(corporate),
    operator: mayOperate(user),
  });
  // The corporate's own name for its clients, in English where it has one (issue 19): the
  // adviser's own list's ("Mis clientes" in the demo); a role that sees every adviser's clients
  // reads "Clientes", as its clients page and top bar do.
  const ownClients = useClientsLabel(corporate, t('nav.clients'));
  const allClients = useClientsLabel(null, t('nav.clients'));
  const clientsLabel = role && seesAllLeads(role) ? allClients : ownClients;
  const walkIn = useWalkInTarget(corporate, items.includes('registroClientes'));
  const entries = items.map((id) => {
    const entry = entryFor(id);
    return { ...entry, short: t(`nav.short.${id}`, { defaultValue: entry.label }) };
  });
  function entryFor(id: SidebarItem): Omit<NavEntry, 'short'> {
    switch (id) {
      case 'home':
        return {
          id,
          label: t('nav.home'),
          icon: <HomeIcon />,
          href: user ? homePath({ user, corporates, current: corporate }) : '/',
        };
      case 'clientes':
        return {
          id,
          label: clientsLabel,
          icon: <ClientsIcon />,
          href: corporatePath(corporate!.slug, 'clientes'),
        };
      case 'desarrollos':
        return {
          id,
          label: t('nav.developments'),
          icon: <BuildingIcon />,
          href: corporatePath(corporate!.slug, 'desarrollos'),
        };
      case 'usuarios':
        return {
          id,
          label: t('nav.users'),
          icon: <UsersIcon />,
          href: corporatePath(corporate!.slug, 'usuarios'),
        };
      case 'registroClientes':
        return {
          id,
          label: t('nav.walkIn'),
          icon: <UserPlusIcon />,
          ...(walkIn.href ? { href: walkIn.href } : { onClick: walkIn.onClick }),
        };
      case 'eventos':
        return {
          id,
          label: t('nav.events'),
          icon: <CalendarIcon />,
          href: corporatePath(corporate!.slug, 'eventos'),
        };
      case 'operaciones':
        return { id, label: t('nav.operations'), icon: <PulseIcon />, href: OPERATIONS_PATH };
      case 'switchCorporate':
        return { id, label: t('nav.switchCorporate'), icon: <SwitchIcon />, onClick: onOpenSwitch };
      case 'settings':
        return { id, label: t('nav.settings'), icon: <CogIcon />, onClick: onOpenSettings };
      case 'logout':
        return {
          id,
          label: t('nav.logout'),
          icon: <LogoutIcon />,
          onClick: () => session.send({ type: 'session.signOut' }),
        };
      default: {
        const unhandled: never = id;
        throw new Error(`unknown sidebar item ${String(unhandled)}`);
      }
    }
  }
  return { entries, active: activeSidebarItem(pathname, corporate?.slug), picker: walkIn.picker };
}

const itemBase = css({
  position: 'relative',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: 1,
  textAlign: 'center',
  fontSize: '11px',
  lineHeight: 1.2,
  fontWeight: 'medium',
  color: 'inherit',
  textDecoration: 'none',
  cursor: 'pointer',
  borderRadius: 'lg',
  transition: 'background 0.15s, color 0.15s',
  _focusVisible: { outline: '2px solid', outlineColor: 'highlight', outlineOffset: '-2px' },
  '& svg': { w: 6, h: 6, flexShrink: 0 },
});

function NavItem({
  entry,
  active,
  className,
  compact = false,
}: {
  entry: NavEntry;
  active: boolean;
  className: string;
  compact?: boolean;
}) {
  const text = compact ? entry.short : entry.label;
  const content = (
    <>
      {entry.icon}
      <span>{text}</span>
    </>
  );
  // The full name stays the accessible name when the visible label is the short one; it starts
  // with the visible word when it does not contain it ("Salir — Cerrar sesión": WCAG 2.5.3).
  const name =
    text === entry.label
      ? undefined
      : entry.label.toLocaleLowerCase().includes(text.toLocaleLowerCase())
        ? entry.label
        : `${text} — ${entry.label}`;
  if (entry.href) {
    return (
      <AppLink
        href={entry.href}
        aria-label={name}
        aria-current={active ? 'page' : undefined}
        data-nav={entry.id}
        className={cx(itemBase, className)}
      >
        {content}
      </AppLink>
    );
  }
  return (
    <button
      type="button"
      aria-label={name}
      onClick={entry.onClick}
      data-nav={entry.id}
      className={cx(itemBase, className)}
    >
      {content}
    </button>
  );
}

const COMMON: SidebarItem[] = ['switchCorporate', 'settings', 'logout'];

export const Sidebar = memo(function Sidebar(props: NavProps) {
  const { t } = useTranslation('shell');
  const { entries, active, picker } = useNavEntries(props);
  const sidebarItem = css({
    w: '90px',
    minH: '64px',
    py: 2,
    px: 1,
    opacity: 0.82,
    _hover: { opacity: 1, bg: 'rgba(255,255,255,0.08)' },
    '&[aria-current=page]': {
      opacity: 1,
      bg: 'rgba(255,255,255,0.12)',
      color: 'highlight',
      _before: {
        content: '""',
        position: 'absolute',
        left: '-5px',
        top: 3,
        bottom: 3,
        w: '3px',
        borderRadius: 'full',
        bg: 'highlight',
      },
    },
  });
  return (
    <aside
      className={css({
        display: { base: 'none', lg: 'flex' },
        flexDirection: 'column',
        alignItems: 'center',
        position: 'sticky',
        top: 0,
        h: '100dvh',
        w: '100px',
        flexShrink: 0,
        bg: 'sidebar',
        color: 'sidebarText',
        py: 4,
        gap: 2,
        overflowY: 'auto',
      })}
    >
      <div className={css({ mb: 4 })}>
        {props.corporate ? (
          <CorporateLogo corporate={props.corporate} size={56} />
        ) : (
          <span
            data-testid="logo-placeholder"
            className={css({
              display: 'grid',
              placeItems: 'center',
              w: '56px',
              h: '56px',
              borderRadius: 'xl',
              bg: 'rgba(255,255,255,0.12)',
              fontWeight: 'bold',
              fontSize: 'xl',
            })}
            title={t('nav.logoPlaceholder')}
          >
            V
          </span>
        )}
      </div>
      <nav
        aria-label={t('nav.label')}
        className={css({ display: 'flex', flexDirection: 'column', flex: 1, gap: 1 })}
      >
        {entries
          .filter((e) => !COMMON.includes(e.id))
          .map((entry) => (
            <NavItem
              key={entry.id}
              entry={entry}
              active={active === entry.id}
              className={sidebarItem}
            />
          ))}
        <div className={css({ flex: 1 })} />
        {entries
          .filter((e) => COMMON.includes(e.id))
          .map((entry) => (
            <NavItem key={entry.id} entry={entry} active={false} className={sidebarItem} />
          ))}
      </nav>
      {picker}
    </aside>
  );
});

/** At most this many places in the bottom bar on a phone: the rest go under "Más". */
const PHONE_SLOTS = 5;

/**
 * The mobile navigation: the sidebar's items in a bar fixed at the bottom, below 1024 px. On a
 * tablet every item has room; on a phone (below 640 px) more than five would shrink the targets
 * under 44 px, so the first four stay and the rest (Users, Operations, the switch, settings,
 * logout) open from "Más", a disclosure above the bar.
 */
export const BottomNav = memo(function BottomNav(props: NavProps) {
  const { t } = useTranslation('shell');
  const { entries, active, picker } = useNavEntries(props);
  const [moreOpen, setMoreOpen] = useState(false);
  const moreButton = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const overflow = entries.length > PHONE_SLOTS;
  const kept = overflow
    ? entries.filter((e) => !COMMON.includes(e.id)).slice(0, PHONE_SLOTS - 1)
    : entries;
  const folded = entries.filter((e) => !kept.includes(e));
  const foldedActive = folded.some((e) => e.id === active);

  // Closed on navigation, on Escape (focus back to "Más") and on a press outside.
  useEffect(() => setMoreOpen(false), [pathname]);
  useEffect(() => {
    if (!moreOpen) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setMoreOpen(false);
      moreButton.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!panel.current?.contains(target) && !moreButton.current?.contains(target))
        setMoreOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [moreOpen]);

  // Each item as wide as its label (longer names take the room shorter ones leave), never
  // narrower: on a phone too narrow for all of them the bar scrolls instead of cutting labels.
  const barItem = css({
    flex: '1 0 auto',
    minH: '60px',
    minW: '44px',
    px: 1,
    fontSize: '10px',
    '& span': { maxW: '100%', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
    opacity: 0.8,
    borderRadius: 0,
    '&[aria-current=page], &[data-holds-current]': {
      opacity: 1,
      color: 'highlight',
      boxShadow: 'inset 0 3px 0 0 var(--vt-colorResaltado, #fca311)',
    },
  });
  const tabletOnly = css({ display: { base: 'none', sm: 'flex' } });
  const panelItem = css({
    flexDirection: 'row',
    justifyContent: 'flex-start',
    gap: 3,
    minH: '48px',
    px: 4,
    // More specific than the item's 11 px (a list has room for a reading size).
    '& span': { fontSize: '0.875rem' },
    borderRadius: 'md',
    _hover: { bg: 'rgba(255,255,255,0.08)' },
    '&[aria-current=page]': { color: 'highlight', bg: 'rgba(255,255,255,0.12)' },
  });
  return (
    <nav
      aria-label={t('nav.label')}
      data-testid="bottom-nav"
      // Open, "Más" sits above the chat button (z-index 45), as the panel it opens.
      style={moreOpen ? { zIndex: 50 } : undefined}
      className={css({
        display: { base: 'flex', lg: 'none' },
        position: 'fixed',
        insetX: 0,
        bottom: 0,
        zIndex: 40,
        bg: 'sidebar',
        color: 'sidebarText',
        overflowX: 'auto',
        pb: 'env(safe-area-inset-bottom)',
        boxShadow: '0 -4px 16px rgba(10,20,35,0.15)',
      })}
    >
      {entries.map((entry) => (
        <NavItem
          key={entry.id}
          entry={entry}
          active={active === entry.id}
          className={cx(barItem, overflow && folded.includes(entry) && tabletOnly)}
          compact
        />
      ))}
      {overflow ? (
        <button
          ref={moreButton}
          type="button"
          aria-expanded={moreOpen}
          aria-controls="bottom-nav-more"
          data-nav="more"
          data-holds-current={foldedActive ? '' : undefined}
          onClick={() => setMoreOpen((open) => !open)}
          className={cx(itemBase, barItem, css({ sm: { display: 'none' } }))}
        >
          <MoreIcon />
          <span>{t('nav.more')}</span>
        </button>
      ) : null}
      {overflow && moreOpen ? (
        <div
          ref={panel}
          id="bottom-nav-more"
          data-testid="bottom-nav-more"
          className={css({
            position: 'fixed',
            right: 2,
            bottom: 'calc(64px + env(safe-area-inset-bottom))',
            minW: '15rem',
            maxW: 'calc(100vw - 1rem)',
            display: 'flex',
            flexDirection: 'column',
            gap: 1,
            p: 2,
            bg: 'sidebar',
            color: 'sidebarText',
            borderRadius: 'lg',
            boxShadow: '0 -4px 24px rgba(10,20,35,0.3)',
            sm: { display: 'none' },
          })}
        >
          {folded.map((entry) => (
            <NavItem
              key={entry.id}
              entry={{
                ...entry,
                onClick: entry.onClick
                  ? () => {
                      setMoreOpen(false);
                      entry.onClick?.();
                    }
                  : undefined,
              }}
              active={active === entry.id}
              className={panelItem}
            />
          ))}
        </div>
      ) : null}
      {picker}
    </nav>
  );
});
