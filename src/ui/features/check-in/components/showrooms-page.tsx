/**
 * Showroom administration for host administrators (`/corporativos/{slug}/showrooms`, issue 14):
 * the corporate's showrooms with who is on duty; for the chosen one, the live "on duty now"
 * board (with check-out), its guests, the check-in history of a day (CSV export built in the
 * worker) and its settings (`PUT …/config-corporativo/showroom/{id}`), plus its QR poster.
 */

import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { checkInSecondsLeft, corporateZone, localDay } from '../../../../core/check-in';
import { formatInstant } from '../../../../core/date-format';
import {
  closedByName,
  type CheckInHistoryLabels,
  type CheckInHistoryRow,
} from '../../../../core/check-in-history';
import { mayAdministerShowrooms } from '../../../../core/permissions';
import type { Showroom } from '../../../../core/types';
import { getCoreClient } from '../../../../workers/core-client';
import { AppLink } from '../../../components/app-link';
import { MapPinIcon } from '../../../components/icons';
import { LoadingScreen } from '../../../components/loading-screen';
import { button, card } from '../../../components/styles';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { errorMessage } from '../../../lib/errors';
import { keepRowFocus } from '../../../lib/row-focus';
import {
  onLiveChange,
  onLiveReconnect,
  useLiveStream,
  type LiveChange,
} from '../../../lib/live-stream';
import { toast } from '../../../lib/toast';
import {
  checkOut,
  guestsQuery,
  historyQuery,
  hostAdvisersQuery,
  inviteGuest,
  markGuestArrived,
  onDutyQuery,
  putShowroom,
  removeGuest,
  showroomsQuery,
} from '../api/check-in';
import { useNow } from '../../../lib/use-now';
import { formatClock, formatCountdown } from '../utils/format';

type Tab = 'onDuty' | 'guests' | 'history' | 'settings';
const TABS: readonly Tab[] = ['onDuty', 'guests', 'history', 'settings'];

const field = css({
  display: 'flex',
  flexDirection: 'column',
  gap: 1,
  minW: 0,
  fontSize: 'sm',
  fontWeight: 'medium',
  '& input:not([type=checkbox]), & select': {
    w: '100%',
    minW: 0,
    h: 11,
    px: 3,
    borderRadius: 'md',
    border: '1px solid token(colors.border)',
    bg: 'surface',
    fontSize: 'sm',
    fontWeight: 'normal',
  },
});

/** Keeps the board, history and guests current from the live stream while the page is open. */
function useShowroomsLive(idCorporativo: string) {
  const client = useQueryClient();
  useLiveStream();
  useEffect(() => {
    const stop = onLiveChange((change: LiveChange) => {
      if (change.corporateId !== idCorporativo) return;
      if (change.type === 'CheckedIn' || change.type === 'CheckedOut') {
        void client.invalidateQueries({ queryKey: ['api', 'showroomEnTurno'] });
        void client.invalidateQueries({ queryKey: ['api', 'showroomCheckIns'] });
      }
      if (
        change.type === 'GuestInvited' ||
        change.type === 'GuestRemoved' ||
        change.type === 'GuestArrived'
      )
        void client.invalidateQueries({ queryKey: ['api', 'showroomInvitados'] });
      if (change.type === 'ShowroomConfigured')
        void client.invalidateQueries({ queryKey: showroomsQuery(idCorporativo).queryKey });
    });
    const stopReconnect = onLiveReconnect(() => {
      for (const key of ['showroomEnTurno', 'showroomCheckIns', 'showroomInvitados'])
        void client.invalidateQueries({ queryKey: ['api', key] });
    });
    return () => {
      stop();
      stopReconnect();
    };
  }, [client, idCorporativo]);
}

export function ShowroomsPage() {
  const { t } = useTranslation('checkin');
  const { corporate, role } = useCorporateContext();
  const allowed = mayAdministerShowrooms(role);
  const showrooms = useQuery({ ...showroomsQuery(corporate.id), enabled: allowed });
  const [selected, setSelected] = useState<string | null>(null);
  const [draft, setDraft] = useState<Showroom | null>(null);
  useShowroomsLive(corporate.id);
  const list = showrooms.data ?? [];
  const boards = useQueries({
    queries: list.map((s) => ({ ...onDutyQuery(corporate.id, s.id), enabled: allowed })),
  });

  if (!allowed)
    return (
      <p role="alert" className={`${card()} ${css({ p: 6, maxW: '40rem', mx: 'auto' })}`}>
        {t('admin.forbidden')}
      </p>
    );
  if (showrooms.isPending) return <LoadingScreen />;
  if (showrooms.isError) return <p role="alert">{errorMessage(showrooms.error)}</p>;

  const current = draft ?? list.find((s) => s.id === selected) ?? list[0] ?? null;
  const startNew = () => {
    const id = `sr-${crypto.randomUUID().slice(0, 8)}`;
    setDraft({
      id,
      nombre: t('admin.newName'),
      activo: true,
      coordenadas: { _latitude: 19.4326, _longitude: -99.1332, _accuracy: 30 },
    });
  };

  return (
    <div
      className={css({
        maxW: '72rem',
        mx: 'auto',
        display: 'flex',
        flexDirection: 'column',
        gap: 5,
      })}
    >
      <header
        className={css({
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'flex-end',
          justifyContent: 'space-between',
          gap: 3,
        })}
      >
        <div>
          <h2 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{t('admin.title')}</h2>
          <p className={css({ color: 'muted', fontSize: 'sm', maxW: '40rem' })}>
            {t('admin.subtitle')}
          </p>
        </div>
        <button type="button" className={button({ variant: 'ghost' })} onClick={startNew}>
          {t('admin.new')}
        </button>
      </header>
      <div
        className={css({
          display: 'grid',
          // minmax(0, …): a wide table or the list's scroller never widens the page.
          gridTemplateColumns: { base: 'minmax(0, 1fr)', lg: '17rem minmax(0, 1fr)' },
          gap: 5,
          alignItems: 'start',
        })}
      >
        <nav aria-label={t('admin.list')} className={css({ minW: 0 })}>
          <ul
            className={css({
              display: 'flex',
              flexDirection: { base: 'row', lg: 'column' },
              gap: 2,
              overflowX: { base: 'auto', lg: 'visible' },
              pb: { base: 1, lg: 0 },
            })}
          >
            {list.map((s, i) => {
              const count = boards[i]?.data?.length ?? 0;
              const isCurrent = !draft && current?.id === s.id;
              return (
                <li key={s.id} className={css({ flexShrink: 0 })}>
                  <button
                    type="button"
                    aria-current={isCurrent ? 'true' : undefined}
                    onClick={() => {
                      setDraft(null);
                      setSelected(s.id);
                    }}
                    className={css({
                      w: '100%',
                      minW: '12rem',
                      textAlign: 'left',
                      display: 'flex',
                      alignItems: 'center',
                      gap: 3,
                      p: 3,
                      borderRadius: 'lg',
                      border: '1px solid',
                      borderColor: 'border',
                      bg: 'surface',
                      cursor: 'pointer',
                      '&[aria-current=true]': {
                        borderColor: 'primary',
                        boxShadow: '0 0 0 1px token(colors.primary)',
                      },
                      '& svg': { w: 5, h: 5, color: 'primary', flexShrink: 0 },
                    })}
                  >
                    <MapPinIcon />
                    <span className={css({ display: 'flex', flexDirection: 'column', minW: 0 })}>
                      <span className={css({ fontWeight: 'semibold', truncate: true })}>
                        {s.nombre}
                      </span>
                      <span className={css({ fontSize: 'xs', color: 'muted' })}>
                        {s.activo ? t('admin.active') : t('admin.inactive')} ·{' '}
                        {t('admin.onDutyCount', { count })}
                      </span>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        </nav>
        {current ? (
          <ShowroomDetail
            key={current.id}
            showroom={current}
            isNew={draft !== null}
            onSaved={(s) => {
              setDraft(null);
              setSelected(s.id);
            }}
          />
        ) : null}
      </div>
    </div>
  );
}

function ShowroomDetail({
  showroom,
  isNew,
  onSaved,
}: {
  showroom: Showroom;
  isNew: boolean;
  onSaved: (showroom: Showroom) => void;
}) {
  const { t } = useTranslation('checkin');
  const { corporate } = useCorporateContext();
  const [tab, setTab] = useState<Tab>(isNew ? 'settings' : 'onDuty');
  const tabsId = useId();
  const tabs = isNew ? (['settings'] as const) : TABS;
  return (
    <section
      aria-labelledby={`${tabsId}-title`}
      className={`${card()} ${css({ p: { base: 4, md: 6 }, display: 'flex', flexDirection: 'column', gap: 4, minW: 0 })}`}
    >
      <div
        className={css({
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 3,
        })}
      >
        <h3 id={`${tabsId}-title`} className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
          {showroom.nombre}
        </h3>
        {isNew ? null : (
          <AppLink
            href={`/corporativos/${corporate.slug}/showrooms/${encodeURIComponent(showroom.id)}/cartel`}
            className={button({ variant: 'primary' })}
          >
            {t('admin.poster')}
          </AppLink>
        )}
      </div>
      <div
        role="tablist"
        aria-label={t('admin.tabs.label')}
        className={css({
          display: 'flex',
          gap: 1,
          borderBottom: '1px solid token(colors.border)',
          overflowX: 'auto',
        })}
      >
        {tabs.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`${tabsId}-${name}`}
            aria-selected={tab === name}
            aria-controls={`${tabsId}-${name}-panel`}
            onClick={() => setTab(name)}
            className={css({
              px: 3,
              minH: 11,
              fontSize: 'sm',
              fontWeight: 'semibold',
              whiteSpace: 'nowrap',
              color: 'muted',
              borderBottom: '2px solid transparent',
              mb: '-1px',
              cursor: 'pointer',
              '&[aria-selected=true]': { color: 'primary', borderColor: 'primary' },
            })}
          >
            {t(`admin.tabs.${name}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${tabsId}-${tab}-panel`} aria-labelledby={`${tabsId}-${tab}`}>
        {tab === 'onDuty' ? <OnDutyBoard showroom={showroom} /> : null}
        {tab === 'guests' ? <Guests showroom={showroom} tabId={`${tabsId}-guests`} /> : null}
        {tab === 'history' ? <History showroom={showroom} /> : null}
        {tab === 'settings' ? <ShowroomSettings showroom={showroom} onSaved={onSaved} /> : null}
      </div>
    </section>
  );
}

function Badge({ children, tone }: { children: ReactNode; tone?: 'success' }) {
  return (
    <span
      className={css({
        fontSize: 'xs',
        fontWeight: 'semibold',
        px: 2,
        py: 0.5,
        borderRadius: 'full',
        bg: tone === 'success' ? '#dcfce7' : 'rgba(0,0,0,0.06)',
        color: tone === 'success' ? '#14532d' : undefined,
        whiteSpace: 'nowrap',
      })}
    >
      {children}
    </span>
  );
}

function OnDutyBoard({ showroom }: { showroom: Showroom }) {
  const { t, i18n } = useTranslation('checkin');
  const { corporate } = useCorporateContext();
  const client = useQueryClient();
  const board = useQuery(onDutyQuery(corporate.id, showroom.id));
  const now = useNow(1000, (board.data?.length ?? 0) > 0);
  // Focus after a check-out, whose row leaves the board (row-focus.ts): the next adviser's name,
  // or the board's heading once nobody is left.
  const heading = useRef<HTMLHeadingElement>(null);
  const out = useMutation({
    mutationFn: (row: CheckInHistoryRow) => checkOut(row),
    onSuccess: (_, row) => {
      toast.success(t('admin.board.checkedOut', { name: row.nombreUsuario }));
      void client.invalidateQueries({ queryKey: ['api', 'showroomEnTurno'] });
      void client.invalidateQueries({ queryKey: ['api', 'showroomCheckIns'] });
    },
  });
  const zone = corporateZone(corporate);
  if (board.isPending) return <LoadingScreen />;
  if (board.isError) return <p role="alert">{errorMessage(board.error)}</p>;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: 3 })}>
      <div className={css({ display: 'flex', alignItems: 'center', gap: 2 })}>
        <h4 ref={heading} tabIndex={-1} className={css({ fontWeight: 'semibold' })}>
          {t('admin.board.title')}
        </h4>
        <span
          className={css({
            fontSize: 'xs',
            color: 'muted',
            display: 'flex',
            alignItems: 'center',
            gap: 1,
          })}
        >
          <span
            aria-hidden="true"
            className={css({ w: 2, h: 2, borderRadius: 'full', bg: '#1a7f37' })}
          />
          {t('admin.board.live')}
        </span>
      </div>
      {board.data.length === 0 ? (
        <p className={css({ color: 'muted', py: 6, textAlign: 'center' })}>
          {t('admin.board.empty')}
        </p>
      ) : (
        <ul
          data-testid="on-duty-board"
          className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}
        >
          {board.data.map((row) => (
            <li
              key={row.id}
              data-testid="on-duty-row"
              data-row
              className={css({
                display: 'flex',
                flexWrap: 'wrap',
                alignItems: 'center',
                gap: 3,
                p: 3,
                borderRadius: 'lg',
                border: '1px solid token(colors.border)',
              })}
            >
              <div className={css({ flex: 1, minW: '10rem' })}>
                <p data-row-name tabIndex={-1} className={css({ fontWeight: 'semibold' })}>
                  {row.nombreUsuario}
                </p>
                <p className={css({ fontSize: 'sm', color: 'muted' })}>
                  {t('admin.board.since', {
                    time: formatClock(row.fechaAlta._seconds, i18n.language, zone),
                  })}{' '}
                  ·{' '}
                  {t('admin.board.left', {
                    time: formatCountdown(
                      checkInSecondsLeft(row.fechaAlta._seconds, new Date(now)),
                    ),
                  })}
                </p>
              </div>
              <Badge>
                {row.tipoRegistro === 'QR' ? t('admin.board.qr') : t('admin.board.geo')}
              </Badge>
              <button
                type="button"
                className={button({ variant: 'ghost' })}
                aria-label={t('admin.board.checkOutOf', { name: row.nombreUsuario })}
                aria-disabled={out.isPending && out.variables?.id === row.id}
                onClick={(e) => {
                  if (out.isPending && out.variables?.id === row.id) return;
                  const refocus = keepRowFocus(e.currentTarget, {
                    fallback: () => heading.current,
                  });
                  out.mutate(row, { onSuccess: refocus });
                }}
              >
                {t('admin.board.checkOut')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Guests({ showroom, tabId }: { showroom: Showroom; tabId: string }) {
  const { t, i18n } = useTranslation('checkin');
  const { corporate } = useCorporateContext();
  const client = useQueryClient();
  const today = localDay(new Date(), corporateZone(corporate));
  const guests = useQuery(guestsQuery(corporate.id, showroom.id, today));
  const advisers = useQuery(hostAdvisersQuery(corporate.id));
  const ids = { nombre: useId(), contacto: useId(), fecha: useId(), asesor: useId() };
  const [form, setForm] = useState({ nombre: '', contacto: '', fechaVisita: today, idAsesor: '' });
  const refresh = () => void client.invalidateQueries({ queryKey: ['api', 'showroomInvitados'] });
  const add = useMutation({
    mutationFn: () => inviteGuest(corporate.id, showroom.id, form),
    onSuccess: () => {
      toast.success(t('admin.guests.added'));
      setForm((f) => ({ ...f, nombre: '', contacto: '' }));
      refresh();
    },
  });
  // Focus after "Llegó" or "Quitar", whose button goes (row-focus.ts): the guest's name, the next
  // guest's, or the guests' tab once the list is empty. Pending buttons are aria-disabled, not
  // disabled, so that they keep focus.
  const rowFocus = (button: HTMLElement) =>
    keepRowFocus(button, { fallback: () => document.getElementById(tabId) });
  const arrived = useMutation({
    mutationFn: (guest: { id: string; nombre: string }) =>
      markGuestArrived(corporate.id, showroom.id, guest.id),
    onSuccess: (_saved, guest) => {
      toast.success(t('admin.guests.arrivedToast', { name: guest.nombre }));
      refresh();
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
  const remove = useMutation({
    mutationFn: (id: string) => removeGuest(corporate.id, showroom.id, id),
    onSuccess: () => {
      toast.info(t('admin.guests.removed'));
      refresh();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!add.isPending) add.mutate();
  };
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: 5 })}>
      <form
        onSubmit={submit}
        aria-label={t('admin.guests.add')}
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' },
          gap: 3,
          alignItems: 'end',
        })}
      >
        <div className={field}>
          <label htmlFor={ids.nombre}>{t('admin.guests.nombre')}</label>
          <input
            id={ids.nombre}
            required
            maxLength={120}
            value={form.nombre}
            onChange={(e) => setForm({ ...form, nombre: e.target.value })}
          />
        </div>
        <div className={field}>
          <label htmlFor={ids.contacto}>{t('admin.guests.contacto')}</label>
          <input
            id={ids.contacto}
            maxLength={160}
            value={form.contacto}
            onChange={(e) => setForm({ ...form, contacto: e.target.value })}
          />
        </div>
        <div className={field}>
          <label htmlFor={ids.fecha}>{t('admin.guests.fechaVisita')}</label>
          <input
            id={ids.fecha}
            type="date"
            required
            min={today}
            value={form.fechaVisita}
            onChange={(e) => setForm({ ...form, fechaVisita: e.target.value })}
          />
        </div>
        <div className={field}>
          <label htmlFor={ids.asesor}>{t('admin.guests.asesor')}</label>
          <select
            id={ids.asesor}
            required
            value={form.idAsesor}
            onChange={(e) => setForm({ ...form, idAsesor: e.target.value })}
          >
            <option value="">{t('admin.guests.chooseAdviser')}</option>
            {(advisers.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {`${a.nombre} ${a.apellidos}`.trim()}
              </option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          className={`${button({ variant: 'primary' })} ${css({ justifySelf: 'start' })}`}
          // aria-disabled, not disabled, while pending: a disabled button drops the keyboard
          // focus to the page. A second press meanwhile does nothing (submit).
          aria-disabled={add.isPending}
        >
          {t('admin.guests.add')}
        </button>
      </form>
      {guests.isPending ? (
        <LoadingScreen />
      ) : guests.isError ? (
        <p role="alert">{errorMessage(guests.error)}</p>
      ) : guests.data.length === 0 ? (
        <p className={css({ color: 'muted', textAlign: 'center', py: 4 })}>
          {t('admin.guests.empty')}
        </p>
      ) : (
        <ul
          aria-label={t('admin.guests.title')}
          className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}
        >
          {guests.data.map((g) => (
            <li
              key={g.id}
              data-row
              className={css({
                display: 'flex',
                flexWrap: 'wrap',
                alignItems: 'center',
                gap: 3,
                p: 3,
                borderRadius: 'lg',
                border: '1px solid token(colors.border)',
              })}
            >
              <Badge>{formatInstant(g.fechaVisita, 'weekdayDate', i18n.language, null)}</Badge>
              <div className={css({ flex: 1, minW: '10rem' })}>
                <p data-row-name tabIndex={-1} className={css({ fontWeight: 'semibold' })}>
                  {g.nombre}
                </p>
                <p className={css({ fontSize: 'sm', color: 'muted' })}>
                  {[g.contacto, t('admin.guests.hostedBy', { name: g.nombreAsesor })]
                    .filter(Boolean)
                    .join(' · ')}
                </p>
              </div>
              {g.llegada ? (
                <Badge tone="success">
                  {t('admin.guests.arrivedAt', {
                    time: formatClock(g.llegada._seconds, i18n.language, corporateZone(corporate)),
                  })}
                </Badge>
              ) : (
                <button
                  type="button"
                  className={button()}
                  aria-label={t('admin.guests.arriveNamed', { name: g.nombre })}
                  aria-disabled={arrived.isPending && arrived.variables?.id === g.id}
                  onClick={(e) => {
                    if (arrived.isPending && arrived.variables?.id === g.id) return;
                    const refocus = rowFocus(e.currentTarget);
                    arrived.mutate({ id: g.id, nombre: g.nombre }, { onSuccess: refocus });
                  }}
                >
                  {t('admin.guests.arrive')}
                </button>
              )}
              <button
                type="button"
                className={button({ variant: 'ghost' })}
                aria-label={t('admin.guests.removeNamed', { name: g.nombre })}
                aria-disabled={remove.isPending && remove.variables === g.id}
                onClick={(e) => {
                  if (remove.isPending && remove.variables === g.id) return;
                  const refocus = rowFocus(e.currentTarget);
                  remove.mutate(g.id, { onSuccess: refocus });
                }}
              >
                {t('admin.guests.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function historyLabels(t: (key: string) => string): CheckInHistoryLabels {
  const keys = [
    'asesor',
    'showroom',
    'entrada',
    'salida',
    'minutos',
    'registro',
    'motivo',
    'cerradoPor',
    'qr',
    'geolocalizacion',
    'manual',
    'expirado',
    'activo',
    'sistema',
  ] as const;
  return Object.fromEntries(
    keys.map((k) => [k, t(`admin.history.${k}`)]),
  ) as unknown as CheckInHistoryLabels;
}

function download(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function History({ showroom }: { showroom: Showroom }) {
  const { t, i18n } = useTranslation('checkin');
  const { corporate } = useCorporateContext();
  const zone = corporateZone(corporate);
  const [day, setDay] = useState(() => localDay(new Date(), zone));
  const dayId = useId();
  const history = useQuery(historyQuery(corporate.id, showroom.id, day));
  const labels = historyLabels(t);
  const exportCsv = useMutation({
    mutationFn: (rows: CheckInHistoryRow[]) =>
      getCoreClient().checkInHistoryCsv(rows, labels, zone, showroom.nombre, day),
    onSuccess: ({ blob, fileName }) => {
      download(blob, fileName);
      toast.success(t('admin.history.exported'));
    },
  });
  const reason = (r: CheckInHistoryRow) =>
    r.checkInActivo
      ? labels.activo
      : r.motivoSalida === 'expirado'
        ? labels.expirado
        : labels.manual;
  // The hour as every screen writes it (es 24-hour, en `5:53 AM`), in the corporate's zone.
  const time = (seconds: number) => formatClock(seconds, i18n.language, zone);
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: 4 })}>
      <div className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'end', gap: 3 })}>
        <div className={field}>
          <label htmlFor={dayId}>{t('admin.history.day')}</label>
          <input
            id={dayId}
            type="date"
            value={day}
            onChange={(e) => {
              if (e.target.value) setDay(e.target.value);
            }}
          />
        </div>
        <button
          type="button"
          className={button({ variant: 'ghost' })}
          disabled={!history.data || history.data.length === 0}
          // aria-disabled, not disabled, while pending: a disabled button drops the keyboard
          // focus to the page. A second press meanwhile does nothing (onClick).
          aria-disabled={exportCsv.isPending}
          onClick={() => {
            if (history.data && !exportCsv.isPending) exportCsv.mutate(history.data);
          }}
        >
          {t('admin.history.export')}
        </button>
      </div>
      {history.isPending ? (
        <LoadingScreen />
      ) : history.isError ? (
        <p role="alert">{errorMessage(history.error)}</p>
      ) : history.data.length === 0 ? (
        <p className={css({ color: 'muted', textAlign: 'center', py: 4 })}>
          {t('admin.history.empty')}
        </p>
      ) : (
        <div className={css({ overflowX: 'auto' })}>
          <table
            className={css({
              w: '100%',
              fontSize: 'sm',
              borderCollapse: 'collapse',
              '& th, & td': {
                textAlign: 'left',
                px: 2,
                py: 2,
                borderBottom: '1px solid token(colors.border)',
                whiteSpace: 'nowrap',
              },
              '& th': { color: 'muted', fontWeight: 'semibold' },
            })}
          >
            <thead>
              <tr>
                <th scope="col">{labels.asesor}</th>
                <th scope="col">{labels.entrada}</th>
                <th scope="col">{labels.salida}</th>
                <th scope="col">{labels.registro}</th>
                <th scope="col">{labels.motivo}</th>
                <th scope="col">{labels.cerradoPor}</th>
              </tr>
            </thead>
            <tbody>
              {history.data.map((r) => (
                <tr key={r.id}>
                  <td>{r.nombreUsuario}</td>
                  <td>{time(r.fechaAlta._seconds)}</td>
                  <td>{r.fechaSalida ? time(r.fechaSalida._seconds) : '—'}</td>
                  <td>{r.tipoRegistro === 'QR' ? labels.qr : labels.geolocalizacion}</td>
                  <td>{reason(r)}</td>
                  <td>{closedByName(r, labels.sistema) || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function ShowroomSettings({
  showroom,
  onSaved,
}: {
  showroom: Showroom;
  onSaved: (showroom: Showroom) => void;
}) {
  const { t } = useTranslation('checkin');
  const { corporate } = useCorporateContext();
  const client = useQueryClient();
  const ids = { nombre: useId(), activo: useId(), lat: useId(), lng: useId(), acc: useId() };
  const [form, setForm] = useState({
    nombre: showroom.nombre,
    activo: showroom.activo,
    lat: String(showroom.coordenadas._latitude),
    lng: String(showroom.coordenadas._longitude),
    acc: String(showroom.coordenadas._accuracy ?? ''),
  });
  const save = useMutation({
    mutationFn: () =>
      putShowroom(corporate.id, {
        id: showroom.id,
        nombre: form.nombre,
        activo: form.activo,
        coordenadas: {
          _latitude: Number(form.lat),
          _longitude: Number(form.lng),
          ...(form.acc.trim() === '' ? {} : { _accuracy: Number(form.acc) }),
        },
      }),
    onSuccess: (saved) => {
      toast.success(t('admin.settings.saved'));
      void client.invalidateQueries({ queryKey: showroomsQuery(corporate.id).queryKey });
      onSaved(saved);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!save.isPending) save.mutate();
  };
  return (
    <form
      onSubmit={submit}
      aria-label={t('admin.settings.title')}
      className={css({
        display: 'grid',
        gridTemplateColumns: { base: 'minmax(0, 1fr)', md: 'repeat(3, minmax(0, 1fr))' },
        gap: 3,
        alignItems: 'end',
      })}
    >
      <div className={`${field} ${css({ gridColumn: { md: 'span 2' } })}`}>
        <label htmlFor={ids.nombre}>{t('admin.settings.nombre')}</label>
        <input
          id={ids.nombre}
          required
          maxLength={120}
          value={form.nombre}
          onChange={(e) => setForm({ ...form, nombre: e.target.value })}
        />
      </div>
      <label
        htmlFor={ids.activo}
        className={css({
          display: 'flex',
          alignItems: 'center',
          gap: 2,
          minH: 11,
          fontSize: 'sm',
          cursor: 'pointer',
        })}
      >
        <input
          id={ids.activo}
          type="checkbox"
          checked={form.activo}
          onChange={(e) => setForm({ ...form, activo: e.target.checked })}
          className={css({ w: 5, h: 5 })}
        />
        {t('admin.settings.activo')}
      </label>
      <div className={field}>
        <label htmlFor={ids.lat}>{t('admin.settings.latitud')}</label>
        <input
          id={ids.lat}
          type="number"
          required
          step="any"
          min={-90}
          max={90}
          value={form.lat}
          onChange={(e) => setForm({ ...form, lat: e.target.value })}
        />
      </div>
      <div className={field}>
        <label htmlFor={ids.lng}>{t('admin.settings.longitud')}</label>
        <input
          id={ids.lng}
          type="number"
          required
          step="any"
          min={-180}
          max={180}
          value={form.lng}
          onChange={(e) => setForm({ ...form, lng: e.target.value })}
        />
      </div>
      <div className={field}>
        <label htmlFor={ids.acc}>{t('admin.settings.precision')}</label>
        <input
          id={ids.acc}
          type="number"
          step="any"
          min={0}
          value={form.acc}
          onChange={(e) => setForm({ ...form, acc: e.target.value })}
        />
      </div>
      <p className={css({ gridColumn: { md: 'span 3' }, fontSize: 'sm', color: 'muted' })}>
        {t('admin.settings.hint')}
      </p>
      <button
        type="submit"
        className={`${button({ variant: 'primary' })} ${css({ justifySelf: 'start' })}`}
        // aria-disabled, not disabled, while pending: a disabled button drops the keyboard
        // focus to the page. A second press meanwhile does nothing (submit).
        aria-disabled={save.isPending}
        aria-busy={save.isPending}
      >
        {save.isPending ? t('admin.settings.saving') : t('admin.settings.save')}
      </button>
    </form>
  );
}
