/**
 * Events (issue 23 point 3): the corporate's appointments as an agenda (per showroom, with who is
 * coming, for which adviser and whether they arrived: where host administrators land), a day, a
 * week starting on Monday, or a month, in the corporate's time zone. Filters by showroom,
 * adviser and development; book by choosing a slot or with the button; open an appointment to
 * change, reschedule or cancel it. The view, day and filters live in the URL.
 */

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from 'styled-system/css';
import { attendanceOpensAt } from '../../../../core/appointment';
import { isHostAdmin, mayAdministerShowrooms } from '../../../../core/permissions';
import { AppLink } from '../../../components/app-link';
import { button, card } from '../../../components/styles';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { developmentsQuery } from '../../../lib/catalogue';
import { useDateFormat } from '../../../lib/dates';
import { errorMessage } from '../../../lib/errors';
import { toast } from '../../../lib/toast';
import { useNow } from '../../../lib/use-now';
import {
  appointmentsQuery,
  bookableAdvisersQuery,
  changeAppointment,
  subscribe,
  subscriptionQuery,
  unsubscribe,
  type CitaView,
} from '../api/appointments';
import { showroomsQuery } from '../api/showrooms';
import {
  CALENDAR_VIEWS,
  dayOf,
  stepDay,
  timeOf,
  today,
  viewDays,
  viewRange,
  zoneOf,
  type CalendarView,
} from '../utils/calendar';
import { citaTitle } from '../utils/title';
import { AppointmentDialog, type AppointmentPrefill } from './appointment-dialog';
import { TimeGrid, weekdayAndDay, type MoveTarget } from './time-grid';

/** Below this width the week is a list of days (seven columns do not fit a phone). */
const NARROW_QUERY = '(max-width: 639px)';

function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(
    () => typeof window !== 'undefined' && window.matchMedia(NARROW_QUERY).matches,
  );
  useEffect(() => {
    const query = window.matchMedia(NARROW_QUERY);
    const update = () => setNarrow(query.matches);
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return narrow;
}

export interface EventsSearch {
  vista?: CalendarView;
  fecha?: string;
  showroom?: string;
  asesor?: string;
  desarrollo?: string;
  /** Open the booking form for this lead (from the lead, the quotation, the walk-in page). */
  agendar?: string;
  idDesarrollo?: string;
  titulo?: string;
}

const selectStyle = css({
  minH: 10,
  px: 2,
  borderRadius: 'md',
  border: '1px solid',
  borderColor: 'border',
  bg: 'surface',
  color: 'text',
  fontSize: 'sm',
});

export function EventsPage({ search }: { search: EventsSearch }) {
  const { t } = useTranslation('appointments');
  const { corporate, role } = useCorporateContext();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const zone = zoneOf(corporate.zonaHoraria);
  const view: CalendarView = search.vista ?? (isHostAdmin(role) ? 'agenda' : 'semana');
  const day = search.fecha ?? today(zone);
  const range = viewRange(view, day, zone);
  const filters = {
    ...(search.showroom ? { idShowroom: search.showroom } : {}),
    ...(search.asesor ? { idAsesor: search.asesor } : {}),
    ...(search.desarrollo ? { idDesarrollo: search.desarrollo } : {}),
  };
  const citas = useQuery(appointmentsQuery(corporate.id, range, filters));
  const showrooms = useQuery(showroomsQuery(corporate.id));
  const developments = useQuery(developmentsQuery(corporate.id));
  const advisers = useQuery(bookableAdvisersQuery(corporate.id));
  const [dialog, setDialog] = useState<{ cita?: CitaView; prefill?: AppointmentPrefill } | null>(
    search.agendar
      ? {
          prefill: {
            idLead: search.agendar,
            // The day shown, as 'Nueva cita' does (it was left empty).
            day,
            ...(search.idDesarrollo ? { idDesarrollo: search.idDesarrollo } : {}),
            ...(search.titulo ? { titulo: search.titulo } : {}),
          },
        }
      : null,
  );

  const go = (next: Partial<EventsSearch>, options: { replace?: boolean } = {}) =>
    void navigate({
      to: '/corporativos/$corporativo/eventos',
      params: { corporativo: corporate.slug },
      search: {
        ...search,
        agendar: undefined,
        idDesarrollo: undefined,
        titulo: undefined,
        ...next,
      },
      ...options,
    });

  // Days and times through the app's one formatter (issue 19, defect 8): the calendar's own
  // values stay `HH:mm`, what people read follows the language's clock.
  const format = useDateFormat(zone);
  const dateLabel = format.day;
  const clock = format.clock;
  const heading =
    view === 'mes'
      ? dateLabel(day, { month: 'long', year: 'numeric' })
      : view === 'semana'
        ? `${dateLabel(viewDays(view, day)[0]!, { day: 'numeric', month: 'short' })} – ${dateLabel(viewDays(view, day)[6]!, { day: 'numeric', month: 'short', year: 'numeric' })}`
        : dateLabel(day, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });

  const narrow = useNarrow();
  const [pendingMove, setPendingMove] = useState<{ cita: CitaView; target: MoveTarget } | null>(
    null,
  );
  const shownCitas = (citas.data ?? []).map((c) =>
    pendingMove?.cita.id === c.id
      ? { ...c, fechaInicio: pendingMove.target.fechaInicio, fechaFin: pendingMove.target.fechaFin }
      : c,
  );
  const byDay = new Map<string, CitaView[]>();
  for (const c of shownCitas) {
    const key = dayOf(c.fechaInicio, zone);
    const list = byDay.get(key);
    if (list) list.push(c);
    else byDay.set(key, [c]);
  }

  const attendance = useMutation({
    mutationFn: (v: { id: string; asistencia: 'asistio' | 'no_asistio' }) =>
      changeAppointment(corporate.id, v.id, { asistencia: v.asistencia }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['api', 'wsObtenerCitas'] }),
  });

  const whenLabel = (target: MoveTarget) =>
    `${dateLabel(target.day, { weekday: 'long', day: 'numeric', month: 'long' })}, ${clock(target.time)}`;
  // Dragging (time-grid.tsx) proposes a time; confirming sends the same PUT as the form.
  const move = useMutation({
    mutationFn: (v: { cita: CitaView; target: MoveTarget }) =>
      changeAppointment(corporate.id, v.cita.id, {
        fechaInicio: v.target.fechaInicio,
        fechaFin: v.target.fechaFin,
      }),
    meta: { silent: true },
    onSuccess: async (saved, v) => {
      toast.success(t('move.done', { when: whenLabel(v.target) }));
      for (const c of saved.conflictos)
        toast.info(
          t('move.conflict', {
            time: `${clock(timeOf(c.fechaInicio, zone))}–${clock(timeOf(c.fechaFin, zone))}`,
            title: c.titulo,
            lead: c.nombreLead,
          }),
        );
      await queryClient.invalidateQueries({ queryKey: ['api', 'wsObtenerCitas'] });
      setPendingMove(null);
    },
    onError: (e) => {
      toast.error(errorMessage(e));
      setPendingMove(null);
    },
  });
  const movePast = pendingMove ? Date.parse(pendingMove.target.fechaInicio) < Date.now() : false;
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (pendingMove) confirmRef.current?.focus();
  }, [pendingMove]);

  const openNew = (prefill: AppointmentPrefill) => setDialog({ prefill });
  const item = (c: CitaView, compact = false) => (
    <button
      type="button"
      key={c.id}
      data-testid="appointment"
      onClick={() => setDialog({ cita: c })}
      className={css({
        display: 'block',
        w: '100%',
        textAlign: 'left',
        px: 2,
        py: 1,
        borderRadius: 'md',
        borderLeft: '4px solid',
        borderLeftColor: 'primary',
        bg: '#eef3fa',
        color: '#14202e',
        fontSize: compact ? 'xs' : 'sm',
        cursor: 'pointer',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        whiteSpace: compact ? 'nowrap' : 'normal',
        _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
      })}
    >
      <strong>{clock(timeOf(c.fechaInicio, zone))}</strong> {c.nombreLead || citaTitle(t, c)}
      {compact ? null : (
        <span className={css({ display: 'block', color: '#3d4654' })}>
          {citaTitle(t, c)} · {c.nombreAsesor} · {c.nombreShowroom}
        </span>
      )}
    </button>
  );

  const devList = (developments.data ?? []).map((d) => ({ id: d.id, nombre: d.nombre }));

  return (
    <div
      className={css({
        maxW: '80rem',
        mx: 'auto',
        display: 'flex',
        flexDirection: 'column',
        gap: 4,
      })}
    >
      <header
        className={css({
          display: 'flex',
          flexWrap: 'wrap',
          gap: 3,
          alignItems: 'center',
          justifyContent: 'space-between',
        })}
      >
        <h2
          className={css({
            fontSize: '2xl',
            fontWeight: 'bold',
            _firstLetter: { textTransform: 'uppercase' },
          })}
        >
          {heading}
        </h2>
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: 2 })}>
          <button
            type="button"
            className={button({ variant: 'ghost' })}
            onClick={() => go({ fecha: stepDay(view, day, -1) })}
          >
            {t('previous')}
          </button>
          <button
            type="button"
            className={button({ variant: 'ghost' })}
            onClick={() => go({ fecha: undefined })}
          >
            {t('today')}
          </button>
          <button
            type="button"
            className={button({ variant: 'ghost' })}
            onClick={() => go({ fecha: stepDay(view, day, 1) })}
          >
            {t('next')}
          </button>
          <button type="button" className={button()} onClick={() => openNew({ day })}>
            {t('new')}
          </button>
        </div>
      </header>
      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: 3, alignItems: 'end' })}>
        <div
          role="group"
          aria-label={t('viewsLabel')}
          className={css({ display: 'flex', flexWrap: 'wrap', gap: 1 })}
        >
          {CALENDAR_VIEWS.map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={v === view}
              className={cx(button({ variant: v === view ? 'primary' : 'ghost' }), css({ px: 3 }))}
              onClick={() => go({ vista: v })}
            >
              {t(`views.${v}`)}
            </button>
          ))}
        </div>
        <label
          className={css({ display: 'flex', flexDirection: 'column', fontSize: 'xs', gap: 1 })}
        >
          {t('showroom')}
          <select
            className={selectStyle}
            value={search.showroom ?? ''}
            onChange={(e) => go({ showroom: e.target.value || undefined })}
          >
            <option value="">{t('all')}</option>
            {(showrooms.data ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.nombre}
              </option>
            ))}
          </select>
        </label>
        {(advisers.data ?? []).length > 1 ? (
          <label
            className={css({ display: 'flex', flexDirection: 'column', fontSize: 'xs', gap: 1 })}
          >
            {t('adviser')}
            <select
              className={selectStyle}
              value={search.asesor ?? ''}
              onChange={(e) => go({ asesor: e.target.value || undefined })}
            >
              <option value="">{t('all')}</option>
              {(advisers.data ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.nombre}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label
          className={css({ display: 'flex', flexDirection: 'column', fontSize: 'xs', gap: 1 })}
        >
          {t('development')}
          <select
            className={selectStyle}
            value={search.desarrollo ?? ''}
            onChange={(e) => go({ desarrollo: e.target.value || undefined })}
          >
            <option value="">{t('all')}</option>
            {devList.map((d) => (
              <option key={d.id} value={d.id}>
                {d.nombre}
              </option>
            ))}
          </select>
        </label>
        {mayAdministerShowrooms(role) ? (
          <AppLink
            href={`/corporativos/${corporate.slug}/showrooms`}
            className={button({ variant: 'ghost' })}
          >
            {t('manageShowrooms')}
          </AppLink>
        ) : null}
      </div>

      {pendingMove ? (
        <section
          aria-labelledby="pending-move-title"
          data-testid="pending-move"
          className={cx(
            card(),
            css({
              p: 3,
              display: 'flex',
              flexWrap: 'wrap',
              gap: 3,
              alignItems: 'center',
              borderLeft: '4px solid',
              borderLeftColor: 'primary',
            }),
          )}
        >
          <p id="pending-move-title" role="status" className={css({ flex: '1 1 16rem' })}>
            {movePast
              ? t('move.past')
              : t('move.confirm', {
                  title: pendingMove.cita.nombreLead || citaTitle(t, pendingMove.cita),
                  when: whenLabel(pendingMove.target),
                })}
          </p>
          <div className={css({ display: 'flex', gap: 2, flexWrap: 'wrap' })}>
            {movePast ? null : (
              <button
                type="button"
                className={button()}
                disabled={move.isPending}
                ref={confirmRef}
                onClick={() => move.mutate(pendingMove)}
              >
                {move.isPending ? t('form.saving') : t('move.yes')}
              </button>
            )}
            <button
              type="button"
              className={button({ variant: 'ghost' })}
              disabled={move.isPending}
              onClick={() => setPendingMove(null)}
            >
              {t('move.undo')}
            </button>
          </div>
        </section>
      ) : null}

      <section
        aria-label={t(`views.${view}`)}
        aria-busy={citas.isPending}
        className={cx(card(), css({ p: { base: 3, md: 5 } }))}
      >
        {citas.isError ? (
          <p role="alert">{errorMessage(citas.error)}</p>
        ) : citas.isPending ? (
          <p className={css({ color: 'muted' })}>{t('loading')}</p>
        ) : view === 'agenda' ? (
          <Agenda
            citas={byDay.get(day) ?? []}
            showrooms={(showrooms.data ?? []).map((s) => ({ id: s.id, nombre: s.nombre }))}
            zone={zone}
            onOpen={(c) => setDialog({ cita: c })}
            onMark={(id, asistencia) => attendance.mutate({ id, asistencia })}
          />
        ) : view === 'dia' || (view === 'semana' && !narrow) ? (
          <TimeGrid
            days={viewDays(view, day)}
            citas={shownCitas}
            zone={zone}
            today={today(zone)}
            pendingId={pendingMove?.cita.id}
            dateLabel={dateLabel}
            onOpen={(c) => setDialog({ cita: c })}
            onSlot={(d, time) => openNew({ day: d, time })}
            onMove={(cita, target) => setPendingMove({ cita, target })}
          />
        ) : (
          <div
            className={css({
              display: 'grid',
              gridTemplateColumns:
                view === 'semana'
                  ? { base: '1fr', md: 'repeat(7, minmax(0, 1fr))' }
                  : 'repeat(7, minmax(0, 1fr))',
              gap: 1,
            })}
          >
            {view === 'mes'
              ? viewDays('semana', day).map((d) => (
                  <div
                    key={d}
                    aria-hidden
                    className={css({
                      fontSize: 'xs',
                      fontWeight: 'bold',
                      textAlign: 'center',
                      color: 'muted',
                    })}
                  >
                    {dateLabel(d, { weekday: 'short' })}
                  </div>
                ))
              : null}
            {viewDays(view, day).map((d) => {
              const list = byDay.get(d) ?? [];
              const outside = view === 'mes' && d.slice(0, 7) !== day.slice(0, 7);
              const shown = view === 'mes' ? list.slice(0, 3) : list;
              return (
                <div
                  key={d}
                  data-testid="calendar-day"
                  className={css({
                    minH: view === 'mes' ? '6rem' : '3rem',
                    p: 1,
                    borderRadius: 'md',
                    border: '1px solid token(colors.border)',
                    display: 'flex',
                    flexDirection: 'column',
                    gap: 1,
                    minW: 0,
                    bg: outside ? '#f1f3f6' : 'transparent',
                  })}
                >
                  <button
                    type="button"
                    // The name starts with what the button shows (WCAG 2.5.3, label in name).
                    aria-label={`${
                      view === 'semana'
                        ? weekdayAndDay(dateLabel, d)
                        : dateLabel(d, { day: 'numeric' })
                    } · ${t('newOn', {
                      date: dateLabel(d, { weekday: 'long', day: 'numeric', month: 'long' }),
                    })}`}
                    onClick={() => openNew({ day: d })}
                    className={css({
                      textAlign: 'left',
                      fontSize: 'xs',
                      fontWeight: d === today(zone) ? 'bold' : 'semibold',
                      color: d === today(zone) ? 'primary' : outside ? '#4b5563' : 'text',
                      cursor: 'pointer',
                      minH: 6,
                    })}
                  >
                    {view === 'semana'
                      ? weekdayAndDay(dateLabel, d)
                      : dateLabel(d, { day: 'numeric' })}
                  </button>
                  {shown.map((c) => item(c, true))}
                  {list.length > shown.length ? (
                    <button
                      type="button"
                      className={css({
                        fontSize: 'xs',
                        color: 'muted',
                        textAlign: 'left',
                        cursor: 'pointer',
                      })}
                      onClick={() => go({ vista: 'dia', fecha: d })}
                    >
                      {t('more', { count: list.length - shown.length })}
                    </button>
                  ) : null}
                </div>
              );
            })}
          </div>
        )}
        {!citas.isPending &&
        !citas.isError &&
        (citas.data ?? []).length === 0 &&
        view !== 'agenda' ? (
          <p className={css({ color: 'muted', mt: 3 })}>{t('none')}</p>
        ) : null}
      </section>

      {/* Under the calendar once its appointments are in: drawn before, it was pushed down when
          the calendar replaced its loading line (0.09 of layout shift at 1280 px). */}
      {citas.isPending ? null : <Subscription corporateId={corporate.id} />}

      {dialog && showrooms.data && developments.data ? (
        <AppointmentDialog
          corporateId={corporate.id}
          zone={zone}
          showrooms={showrooms.data}
          developments={devList}
          {...(dialog.cita ? { cita: dialog.cita } : {})}
          {...(dialog.prefill ? { prefill: dialog.prefill } : {})}
          onClose={() => {
            setDialog(null);
            // Opened from a client's "Agendar cita": the address forgets it, so a reload does
            // not open the booking again (a second booking of the same client).
            if (search.agendar !== undefined) go({}, { replace: true });
          }}
        />
      ) : null}
    </div>
  );
}

function Agenda({
  citas,
  showrooms,
  zone,
  onOpen,
  onMark,
}: {
  citas: CitaView[];
  showrooms: { id: string; nombre: string }[];
  zone: string;
  onOpen: (c: CitaView) => void;
  onMark: (id: string, asistencia: 'asistio' | 'no_asistio') => void;
}) {
  const { t } = useTranslation('appointments');
  const { clock } = useDateFormat(zone);
  // Attendance is offered once it can be recorded (core attendanceOpensAt): an arrival from the
  // appointment's day, a no-show from its start.
  const now = useNow(
    60_000,
    citas.some((c) => c.asistencia === 'pendiente'),
  );
  const may = (c: CitaView, asistencia: 'asistio' | 'no_asistio') =>
    now >= attendanceOpensAt(c, asistencia, zone);
  // A mark removes its own button: the focus goes to the appointment's name, not the page.
  const names = useRef(new Map<string, HTMLButtonElement>());
  const mark = (c: CitaView, asistencia: 'asistio' | 'no_asistio') => {
    names.current.get(c.id)?.focus();
    onMark(c.id, asistencia);
  };
  if (citas.length === 0) return <p className={css({ color: 'muted' })}>{t('none')}</p>;
  const groups = showrooms
    .map((s) => ({ ...s, citas: citas.filter((c) => c.idShowroom === s.id) }))
    .filter((g) => g.citas.length > 0);
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: 5 })}>
      {groups.map((g) => (
        <section key={g.id} aria-labelledby={`agenda-${g.id}`}>
          <h2 id={`agenda-${g.id}`} className={css({ fontSize: 'lg', fontWeight: 'bold', mb: 2 })}>
            {g.nombre}
          </h2>
          <ul
            className={css({ listStyle: 'none', display: 'flex', flexDirection: 'column', gap: 2 })}
          >
            {g.citas.map((c) => (
              <li
                key={c.id}
                data-testid="agenda-item"
                className={css({
                  display: 'grid',
                  gridTemplateColumns: { base: '1fr', md: '7rem 1fr auto' },
                  gap: 2,
                  alignItems: 'center',
                  p: 3,
                  borderRadius: 'md',
                  border: '1px solid token(colors.border)',
                })}
              >
                <span className={css({ fontWeight: 'bold' })}>
                  {clock(timeOf(c.fechaInicio, zone))}–{clock(timeOf(c.fechaFin, zone))}
                </span>
                <button
                  type="button"
                  ref={(el) => {
                    if (el) names.current.set(c.id, el);
                    else names.current.delete(c.id);
                  }}
                  onClick={() => onOpen(c)}
                  className={css({
                    textAlign: 'left',
                    cursor: 'pointer',
                    _hover: { textDecoration: 'underline' },
                  })}
                >
                  <span className={css({ display: 'block', fontWeight: 'semibold' })}>
                    {c.nombreLead}
                  </span>
                  <span className={css({ display: 'block', fontSize: 'sm', color: 'muted' })}>
                    {citaTitle(t, c)} · {t('forAdviser', { name: c.nombreAsesor })}
                  </span>
                </button>
                <div
                  className={css({
                    display: 'flex',
                    gap: 2,
                    alignItems: 'center',
                    flexWrap: 'wrap',
                  })}
                >
                  <span
                    className={css({
                      fontSize: 'xs',
                      fontWeight: 'bold',
                      px: 2,
                      py: 0.5,
                      borderRadius: 'full',
                    })}
                    style={
                      c.asistencia === 'asistio'
                        ? { background: '#e5f5ea', color: '#1f6b35' }
                        : c.asistencia === 'no_asistio'
                          ? { background: '#fde8e8', color: '#8a1c1c' }
                          : { background: '#eef1f5', color: '#2f3a4a' }
                    }
                  >
                    {c.asistencia === 'asistio'
                      ? t('arrived')
                      : c.asistencia === 'no_asistio'
                        ? t('noShow')
                        : t('pending')}
                  </span>
                  {c.asistencia !== 'asistio' && may(c, 'asistio') ? (
                    <button
                      type="button"
                      className={button({ variant: 'ghost' })}
                      onClick={() => mark(c, 'asistio')}
                    >
                      {t('markArrived')}
                    </button>
                  ) : null}
                  {c.asistencia === 'pendiente' && may(c, 'no_asistio') ? (
                    <button
                      type="button"
                      className={button({ variant: 'ghost' })}
                      onClick={() => mark(c, 'no_asistio')}
                    >
                      {t('markNoShow')}
                    </button>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function Subscription({ corporateId }: { corporateId: string }) {
  const { t } = useTranslation('appointments');
  const queryClient = useQueryClient();
  const status = useQuery(subscriptionQuery(corporateId));
  const [url, setUrl] = useState<string | null>(null);
  const key = subscriptionQuery(corporateId).queryKey;
  const create = useMutation({
    mutationFn: () => subscribe(corporateId),
    onSuccess: async (res) => {
      setUrl(res.url);
      await queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const revoke = useMutation({
    mutationFn: () => unsubscribe(corporateId),
    onSuccess: async () => {
      setUrl(null);
      await queryClient.invalidateQueries({ queryKey: key });
    },
  });
  return (
    <section
      aria-labelledby="calendar-feed-title"
      className={cx(card(), css({ p: { base: 3, md: 5 } }))}
    >
      <h2 id="calendar-feed-title" className={css({ fontSize: 'lg', fontWeight: 'bold', mb: 2 })}>
        {t('subscription.title')}
      </h2>
      <p className={css({ fontSize: 'sm', color: 'muted', mb: 3 })}>{t('subscription.help')}</p>
      {url ? (
        <label
          className={css({
            display: 'flex',
            flexDirection: 'column',
            gap: 1,
            fontSize: 'sm',
            mb: 3,
          })}
        >
          {t('subscription.url')}
          <input
            readOnly
            value={url}
            className={selectStyle}
            onFocus={(e) => e.currentTarget.select()}
            onClick={() => {
              void navigator.clipboard
                ?.writeText(url)
                .then(() => toast.success(t('subscription.copied')));
            }}
          />
        </label>
      ) : status.data?.activa ? (
        <p className={css({ fontSize: 'sm', mb: 3 })}>{t('subscription.active')}</p>
      ) : null}
      <div className={css({ display: 'flex', gap: 2, flexWrap: 'wrap' })}>
        <button
          type="button"
          className={button({ variant: 'ghost' })}
          onClick={() => create.mutate()}
        >
          {status.data?.activa ? t('subscription.renew') : t('subscription.create')}
        </button>
        {status.data?.activa ? (
          <button
            type="button"
            className={button({ variant: 'ghost' })}
            onClick={() => revoke.mutate()}
          >
            {t('subscription.revoke')}
          </button>
        ) : null}
      </div>
    </section>
  );
}
