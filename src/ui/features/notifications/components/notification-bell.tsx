/**
 * The bell of the top bar (spec §2): the unread count, live; a list newest first with each
 * notification's title, message, time and a link to what it is about. Opening one marks it read
 * (spec §4), "mark all read" marks the rest. On a phone the list takes the screen's width. The
 * gear opens the user's preferences (per kind: in the app, push).
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from 'styled-system/css';
import { formatInstant } from '../../../../core/date-format';
import { AppLink } from '../../../components/app-link';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { currentLanguage, storedLanguage } from '../../../i18n';
import { useMarkRead, useNotifications, type NotificationItem } from '../api/notification-queries';
import { useSyncPushLanguage } from '../api/preferences';
import { NotificationPreferencesDialog } from './notification-preferences';
import { PushToggle } from './push-toggle';

const GearIcon = () => (
  <svg
    width="20"
    height="20"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.8"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    <circle cx="12" cy="12" r="3" />
    <path d="M19.4 15a1.65 1.65 0 0 0 .33 1.82l.06.06a2 2 0 1 1-2.83 2.83l-.06-.06a1.65 1.65 0 0 0-1.82-.33 1.65 1.65 0 0 0-1 1.51V21a2 2 0 1 1-4 0v-.09A1.65 1.65 0 0 0 9 19.4a1.65 1.65 0 0 0-1.82.33l-.06.06a2 2 0 1 1-2.83-2.83l.06-.06A1.65 1.65 0 0 0 4.68 15a1.65 1.65 0 0 0-1.51-1H3a2 2 0 1 1 0-4h.09A1.65 1.65 0 0 0 4.6 9a1.65 1.65 0 0 0-.33-1.82l-.06-.06a2 2 0 1 1 2.83-2.83l.06.06A1.65 1.65 0 0 0 9 4.68a1.65 1.65 0 0 0 1-1.51V3a2 2 0 1 1 4 0v.09a1.65 1.65 0 0 0 1 1.51 1.65 1.65 0 0 0 1.82-.33l.06-.06a2 2 0 1 1 2.83 2.83l-.06.06A1.65 1.65 0 0 0 19.4 9a1.65 1.65 0 0 0 1.51 1H21a2 2 0 1 1 0 4h-.09a1.65 1.65 0 0 0-1.51 1z" />
  </svg>
);

const BellIcon = () => (
  <svg
    width="22"
    height="22"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.8"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
    <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
  </svg>
);

/** "5 min ago", "yesterday", in the interface language. */
export function relativeTime(epochMs: number, now: number, language: string): string {
  const rtf = new Intl.RelativeTimeFormat(language === 'en' ? 'en' : 'es', { numeric: 'auto' });
  const seconds = Math.round((epochMs - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return rtf.format(seconds, 'second');
  if (abs < 3600) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(seconds / 3600), 'hour');
  return rtf.format(Math.round(seconds / 86_400), 'day');
}

export function NotificationBell({ extra = <PushToggle /> }: { extra?: ReactNode }) {
  const { t } = useTranslation('notifications');
  const { corporate, user } = useCorporateContext();
  const language = currentLanguage();
  const { data, isError } = useNotifications(corporate.id, user.id, language);
  const mark = useMarkRead(corporate.id, user.id);
  const [open, setOpen] = useState(false);
  const [preferencesOpen, setPreferencesOpen] = useState(false);
  // Push messages are written in the user's language setting.
  useSyncPushLanguage(user.id, storedLanguage());
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const bellButton = useRef<HTMLButtonElement>(null);
  const items = data ?? [];
  const unread = items.filter((n) => !n.leida).length;

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    const onPointer = (e: PointerEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const openItem = (n: NotificationItem) => {
    if (!n.leida) mark.mutate({ idNotificacion: n.id });
    setOpen(false);
  };

  return (
    <div ref={root} className={css({ position: { base: 'static', md: 'relative' } })}>
      <button
        ref={bellButton}
        type="button"
        data-testid="notification-bell"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={unread > 0 ? t('bell.labelUnread', { count: unread }) : t('bell.label')}
        onClick={() => setOpen((o) => !o)}
        className={css({
          position: 'relative',
          display: 'grid',
          placeItems: 'center',
          minW: 11,
          minH: 11,
          borderRadius: 'lg',
          border: '1px solid',
          borderColor: 'border',
          bg: 'surface',
          cursor: 'pointer',
          _hover: { borderColor: 'primary', color: 'primary' },
          _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
        })}
      >
        <BellIcon />
        {unread > 0 ? (
          <span
            data-testid="notification-count"
            aria-hidden="true"
            className={css({
              position: 'absolute',
              top: '-6px',
              right: '-6px',
              minW: 5,
              h: 5,
              px: 1,
              display: 'grid',
              placeItems: 'center',
              borderRadius: 'full',
              bg: 'danger',
              color: 'white',
              fontSize: 'xs',
              fontWeight: 'bold',
              lineHeight: 1,
            })}
          >
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </button>
      {open ? (
        <div
          id={panelId}
          role="dialog"
          aria-label={t('panel.title')}
          data-testid="notification-panel"
          className={css({
            position: 'absolute',
            top: { base: '100%', md: 'calc(100% + 8px)' },
            left: { base: 0, md: 'auto' },
            right: 0,
            w: { base: 'auto', md: '24rem' },
            maxH: { base: 'calc(100dvh - 4rem)', md: '32rem' },
            display: 'flex',
            flexDirection: 'column',
            bg: 'surface',
            border: '1px solid',
            borderColor: 'border',
            borderRadius: { base: '0', md: 'xl' },
            boxShadow: 'lg',
            zIndex: 40,
            overflow: 'hidden',
          })}
        >
          <div
            className={css({
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'space-between',
              gap: 2,
              px: 4,
              py: 3,
              borderBottomWidth: '1px',
              borderColor: 'border',
            })}
          >
            <h2 className={css({ fontWeight: 'semibold', fontSize: 'md', flex: 1 })}>
              {t('panel.title')}
            </h2>
            <button
              type="button"
              data-testid="notification-mark-all"
              disabled={unread === 0 || mark.isPending}
              onClick={() => mark.mutate({ todas: true })}
              className={css({
                minH: 11,
                px: 2,
                fontSize: 'sm',
                color: 'primary',
                fontWeight: 'medium',
                cursor: 'pointer',
                borderRadius: 'md',
                _disabled: { color: 'muted', cursor: 'default' },
                _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
              })}
            >
              {t('panel.markAll')}
            </button>
            <button
              type="button"
              data-testid="notification-preferences-open"
              aria-label={t('preferences.open')}
              title={t('preferences.open')}
              onClick={() => {
                // The dialog gives the focus back to the bell when it closes.
                bellButton.current?.focus();
                setOpen(false);
                setPreferencesOpen(true);
              }}
              className={css({
                display: 'grid',
                placeItems: 'center',
                minW: 11,
                minH: 11,
                borderRadius: 'md',
                color: 'muted',
                cursor: 'pointer',
                _hover: { color: 'primary' },
                _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
              })}
            >
              <GearIcon />
            </button>
          </div>
          {extra}
          <ul className={css({ overflowY: 'auto', flex: 1 })} data-testid="notification-list">
            {isError ? (
              <li className={css({ p: 4, color: 'muted', fontSize: 'sm' })}>{t('panel.error')}</li>
            ) : items.length === 0 ? (
              <li className={css({ p: 4, color: 'muted', fontSize: 'sm' })}>{t('panel.empty')}</li>
            ) : (
              items.map((n) => (
                <NotificationRow key={n.id} n={n} language={language} onOpen={openItem} />
              ))
            )}
          </ul>
        </div>
      ) : null}
      {preferencesOpen ? (
        <NotificationPreferencesDialog userId={user.id} onClose={() => setPreferencesOpen(false)} />
      ) : null}
    </div>
  );
}

function NotificationRow({
  n,
  language,
  onOpen,
}: {
  n: NotificationItem;
  language: string;
  onOpen: (n: NotificationItem) => void;
}) {
  const { t } = useTranslation('notifications');
  // The exact time on hover, in the corporate's zone like every screen (issue 19, defect 8).
  const exact = formatInstant(
    new Date(n.fechaAlta),
    'dateTime',
    language,
    useCorporateContext().corporate.zonaHoraria,
  );
  const body = (
    <>
      <span className={css({ display: 'flex', alignItems: 'baseline', gap: 2 })}>
        {!n.leida ? (
          <span
            aria-label={t('item.unread')}
            className={css({ w: 2, h: 2, borderRadius: 'full', bg: 'primary', flexShrink: 0 })}
          />
        ) : null}
        <span className={css({ fontWeight: n.leida ? 'medium' : 'bold', flex: 1, minW: 0 })}>
          {n.titulo}
        </span>
        <time
          dateTime={new Date(n.fechaAlta).toISOString()}
          title={exact}
          className={css({ fontSize: 'xs', color: 'muted', flexShrink: 0 })}
        >
          {relativeTime(n.fechaAlta, Date.now(), language)}
        </time>
      </span>
      <span className={css({ display: 'block', fontSize: 'sm', color: 'muted', mt: 1 })}>
        {n.mensaje}
      </span>
    </>
  );
  const rowStyle = css({
    display: 'block',
    w: '100%',
    textAlign: 'left',
    px: 4,
    py: 3,
    minH: 11,
    cursor: 'pointer',
    _hover: { bg: 'bg' },
    _focusVisible: { outline: '2px solid', outlineColor: 'primary', outlineOffset: '-2px' },
  });
  return (
    <li
      data-testid="notification-item"
      data-read={n.leida ? 'true' : 'false'}
      className={cx(css({ borderBottomWidth: '1px', borderColor: 'border' }))}
    >
      {n.link ? (
        <AppLink href={n.link} className={rowStyle} onClick={() => onOpen(n)}>
          {body}
        </AppLink>
      ) : (
        <button type="button" className={rowStyle} onClick={() => onOpen(n)}>
          {body}
        </button>
      )}
    </li>
  );
}
