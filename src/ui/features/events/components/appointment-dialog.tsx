/**
 * Booking and changing an appointment (issue 23 points 3, 4, 6): the client (searched among the
 * leads the user may book with), development, showroom, adviser, date and time in the
 * corporate's time zone, duration, title, kind and reminder. Rescheduling is the date and time
 * fields, with buttons that move it 15 minutes or a day (the keyboard alternative to dragging).
 * Overlaps with the same adviser or showroom show as a warning before saving; the booking may go
 * ahead. Cancelling asks for confirmation. An existing appointment offers its `.ics`. The title
 * is only what the person types: left empty, the appointment stores none and each reader sees
 * the automatic one (kind and client) in their language (core/appointment-title.ts).
 */

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { TIPOS_CITA, type EnviarAntesDe, type TipoCita } from '../../../../core/appointment';
import type { Showroom } from '../../../../core/types';
import { Modal } from '../../../components/modal';
import { button } from '../../../components/styles';
import { errorMessage } from '../../../lib/errors';
import { leadByIdQuery } from '../../../lib/lead-search';
import { useDateFormat } from '../../../lib/dates';
import { toast } from '../../../lib/toast';
import {
  bookAppointment,
  bookableAdvisersQuery,
  bookableLeadsQuery,
  cancelAppointment,
  changeAppointment,
  conflictsQuery,
  icsUrl,
  type CitaView,
} from '../api/appointments';
import { addDays, dayOf, instantOf, timeOf } from '../utils/calendar';
import { automaticTitle } from '../../../lib/appointment-title';

export interface AppointmentPrefill {
  idLead?: string;
  idDesarrollo?: string;
  day?: string;
  time?: string;
  titulo?: string;
}

const DURATIONS = [30, 45, 60, 90, 120];

const field = css({ display: 'flex', flexDirection: 'column', gap: 1, fontSize: 'sm', minW: 0 });
const control = css({
  w: '100%',
  minW: 0,
  minH: 11,
  px: 3,
  borderRadius: 'md',
  border: '1px solid',
  borderColor: 'border',
  bg: 'surface',
  color: 'text',
  fontSize: 'md',
  _focusVisible: { outline: '2px solid', outlineColor: 'primary', outlineOffset: '1px' },
});

function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className={field}>
      <label htmlFor={id} className={css({ fontWeight: 'semibold' })}>
        {label}
      </label>
      {children(id)}
    </div>
  );
}

export function AppointmentDialog({
  corporateId,
  zone,
  showrooms,
  developments,
  cita,
  prefill,
  onClose,
}: {
  corporateId: string;
  zone: string;
  showrooms: Showroom[];
  developments: { id: string; nombre: string }[];
  /** The appointment to change; absent to book a new one. */
  cita?: CitaView;
  prefill?: AppointmentPrefill;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('appointments');
  const { clock } = useDateFormat(zone);
  const queryClient = useQueryClient();
  const active = showrooms.filter((s) => s.activo || s.id === cita?.idShowroom);
  const [search, setSearch] = useState('');
  const [idLead, setIdLead] = useState(cita?.idLead ?? prefill?.idLead ?? '');
  const [idDesarrollo, setIdDesarrollo] = useState(
    cita?.idDesarrollo ?? prefill?.idDesarrollo ?? developments[0]?.id ?? '',
  );
  const [idShowroom, setIdShowroom] = useState(cita?.idShowroom ?? active[0]?.id ?? '');
  const [idAsesor, setIdAsesor] = useState(cita?.idAsesor ?? '');
  const [day, setDay] = useState(cita ? dayOf(cita.fechaInicio, zone) : (prefill?.day ?? ''));
  const [time, setTime] = useState(cita ? timeOf(cita.fechaInicio, zone) : (prefill?.time ?? ''));
  const [duration, setDuration] = useState(
    cita ? Math.round((Date.parse(cita.fechaFin) - Date.parse(cita.fechaInicio)) / 60_000) : 60,
  );
  // The title field holds only what the person types: left empty, the appointment keeps no title
  // text, and every reader sees the automatic one (kind and client) in their own language.
  const initialTitulo = cita ? (cita.tituloAutomatico ? '' : cita.titulo) : (prefill?.titulo ?? '');
  const [titulo, setTitulo] = useState(initialTitulo);
  const [tipo, setTipo] = useState<TipoCita>(cita?.tipo ?? 'visita');
  const tituloHelpId = useId();
  const [enviarRecordatorio, setReminder] = useState(cita?.enviarRecordatorio ?? true);
  const [enviarAntesDe, setBefore] = useState<EnviarAntesDe>(cita?.enviarAntesDe ?? '10_MIN');
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const leads = useQuery({ ...bookableLeadsQuery(corporateId, search), enabled: !cita });
  const advisers = useQuery(bookableAdvisersQuery(corporateId));
  const listed = leads.data?.find((l) => l.id === idLead);
  // A client chosen before the dialog opened (a client's "Agendar cita") who is not among the
  // clients the dialog lists: read on its own, so the select names it.
  const single = useQuery({
    ...leadByIdQuery(corporateId, idLead),
    enabled: !cita && Boolean(idLead) && leads.isSuccess && !listed,
  });
  const fetched = single.data;
  const lead = useMemo(
    () =>
      listed ??
      (fetched && fetched.id === idLead
        ? {
            id: fetched.id,
            nombre: [fetched.nombre, fetched.apellidos].filter(Boolean).join(' '),
            idVendedor: fetched.idVendedor ?? null,
          }
        : undefined),
    [listed, fetched, idLead],
  );

  // The adviser follows the chosen lead's until the user picks one, when the lead's owner can be
  // booked: a client a host registered belongs to the host, who attends no appointments.
  const leadAdviser = advisers.data?.some((a) => a.id === lead?.idVendedor)
    ? (lead?.idVendedor ?? '')
    : '';
  useEffect(() => {
    if (!cita && leadAdviser && !idAsesor) setIdAsesor(leadAdviser);
  }, [cita, leadAdviser, idAsesor]);
  useEffect(() => {
    if (!cita && !idAsesor && advisers.data?.length === 1) setIdAsesor(advisers.data[0]!.id);
  }, [cita, idAsesor, advisers.data]);
  const automatic = automaticTitle(t, tipo, cita?.nombreLead ?? lead?.nombre ?? '');

  const complete = Boolean(idLead && idDesarrollo && idShowroom && day && /^\d\d:\d\d$/.test(time));
  const fechaInicio = complete ? instantOf(day, time, zone) : '';
  const fechaFin = complete
    ? new Date(Date.parse(fechaInicio) + duration * 60_000).toISOString()
    : '';
  const conflicts = useQuery({
    ...conflictsQuery(corporateId, {
      idAsesor,
      idShowroom,
      fechaInicio,
      fechaFin,
      ...(cita ? { excluir: cita.id } : {}),
    }),
    enabled: complete && Boolean(idAsesor),
  });

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['api', 'wsObtenerCitas'] });
  const save = useMutation({
    mutationFn: () => {
      const typed = titulo.trim() === '' ? null : titulo;
      const input = {
        idDesarrollo,
        idShowroom,
        fechaInicio,
        fechaFin,
        titulo: typed,
        tipo,
        idLead,
        idAsesor,
        enviarRecordatorio,
        enviarAntesDe,
      };
      return cita
        ? changeAppointment(corporateId, cita.id, {
            ...input,
            idLead: undefined,
            // Untouched, the title is not sent: an automatic one stays automatic.
            titulo: titulo === initialTitulo ? undefined : typed,
          })
        : bookAppointment(corporateId, input);
    },
    onSuccess: async () => {
      toast.success(t('form.saved'));
      await refresh();
      onClose();
    },
    meta: { silent: true },
    onError: (e) => setProblem(errorMessage(e)),
  });
  const cancel = useMutation({
    mutationFn: () => cancelAppointment(corporateId, cita!.id),
    onSuccess: async () => {
      toast.success(t('form.cancelledToast'));
      await refresh();
      onClose();
    },
    meta: { silent: true },
    onError: (e) => setProblem(errorMessage(e)),
  });

  const move = (minutes: number) => {
    if (!complete) return;
    const next = new Date(Date.parse(fechaInicio) + minutes * 60_000).toISOString();
    setDay(dayOf(next, zone));
    setTime(timeOf(next, zone));
  };

  return (
    <Modal title={cita ? t('form.editTitle') : t('form.newTitle')} onClose={onClose}>
      <form
        className={css({ display: 'flex', flexDirection: 'column', gap: 3 })}
        onSubmit={(e) => {
          e.preventDefault();
          setProblem(null);
          if (!complete) {
            setProblem(t('form.required'));
            return;
          }
          if (!idAsesor) {
            setProblem(t('form.adviserRequired'));
            return;
          }
          save.mutate();
        }}
      >
        {cita ? (
          <p className={css({ fontWeight: 'semibold' })}>
            {t('form.client')}: {cita.nombreLead}
          </p>
        ) : (
          <>
            <Field label={t('form.searchClient')}>
              {(id) => (
                <input
                  id={id}
                  type="search"
                  className={control}
                  value={search}
                  onChange={(e) => setSearch(e.target.value)}
                />
              )}
            </Field>
            <Field label={t('form.client')}>
              {(id) => (
                <select
                  id={id}
                  className={control}
                  value={idLead}
                  onChange={(e) => {
                    setIdLead(e.target.value);
                    setIdAsesor('');
                  }}
                >
                  <option value="">
                    {leads.data?.length !== 0
                      ? t('form.chooseClient')
                      : search.trim() === ''
                        ? t('form.noClientsYet')
                        : t('form.noClients')}
                  </option>
                  {idLead && !listed ? (
                    <option value={idLead}>{lead?.nombre ?? t('form.thisClient')}</option>
                  ) : null}
                  {(leads.data ?? []).map((l) => (
                    <option key={l.id} value={l.id}>
                      {l.nombre}
                      {l.nombreVendedor ? ` — ${l.nombreVendedor}` : ''}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </>
        )}
        <div
          className={css({
            display: 'grid',
            gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' },
            gap: 3,
          })}
        >
          <Field label={t('development')}>
            {(id) => (
              <select
                id={id}
                className={control}
                value={idDesarrollo}
                onChange={(e) => setIdDesarrollo(e.target.value)}
              >
                {developments.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.nombre}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('showroom')}>
            {(id) => (
              <select
                id={id}
                className={control}
                value={idShowroom}
                onChange={(e) => setIdShowroom(e.target.value)}
              >
                {active.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.nombre}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('adviser')}>
            {(id) => (
              <select
                id={id}
                className={control}
                value={idAsesor}
                onChange={(e) => setIdAsesor(e.target.value)}
              >
                <option value="">{t('form.chooseAdviser')}</option>
                {/* An appointment's adviser who can no longer be booked still shows as chosen. */}
                {cita?.idAsesor && !advisers.data?.some((a) => a.id === cita.idAsesor) ? (
                  <option value={cita.idAsesor}>{cita.nombreAsesor || cita.idAsesor}</option>
                ) : null}
                {(advisers.data ?? []).map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.nombre}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('form.tipo')}>
            {(id) => (
              <select
                id={id}
                className={control}
                value={tipo}
                onChange={(e) => setTipo(e.target.value as TipoCita)}
              >
                {TIPOS_CITA.map((k) => (
                  <option key={k} value={k}>
                    {t(`form.tipos.${k}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('form.date')}>
            {(id) => (
              <input
                id={id}
                type="date"
                className={control}
                value={day}
                onChange={(e) => setDay(e.target.value)}
              />
            )}
          </Field>
          <Field label={t('form.time')}>
            {(id) => (
              <input
                id={id}
                type="time"
                step={300}
                className={control}
                value={time}
                onChange={(e) => setTime(e.target.value)}
              />
            )}
          </Field>
          <Field label={t('form.duration')}>
            {(id) => (
              <select
                id={id}
                className={control}
                value={duration}
                onChange={(e) => setDuration(Number(e.target.value))}
              >
                {[...new Set([...DURATIONS, duration])].map((m) => (
                  <option key={m} value={m}>
                    {t('form.minutes', { count: m })}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('form.titulo')}>
            {(id) => (
              <>
                <input
                  id={id}
                  className={control}
                  value={titulo}
                  maxLength={200}
                  placeholder={automatic}
                  aria-describedby={titulo.trim() === '' ? tituloHelpId : undefined}
                  onChange={(e) => setTitulo(e.target.value)}
                />
                {titulo.trim() === '' ? (
                  <span id={tituloHelpId} className={css({ fontSize: 'xs', color: 'muted' })}>
                    {t('form.tituloHelp', { title: automatic })}
                  </span>
                ) : null}
              </>
            )}
          </Field>
        </div>
        {cita ? (
          <div
            role="group"
            aria-label={t('form.reschedule')}
            className={css({ display: 'flex', flexWrap: 'wrap', gap: 2 })}
          >
            <p className={css({ w: '100%', fontSize: 'sm', color: 'muted' })}>
              {t('form.moveHelp')}
            </p>
            <button
              type="button"
              className={button({ variant: 'ghost' })}
              onClick={() => move(-15)}
            >
              {t('form.moveEarlier')}
            </button>
            <button type="button" className={button({ variant: 'ghost' })} onClick={() => move(15)}>
              {t('form.moveLater')}
            </button>
            <button
              type="button"
              className={button({ variant: 'ghost' })}
              onClick={() => day && setDay(addDays(day, -1))}
            >
              {t('form.previousDay')}
            </button>
            <button
              type="button"
              className={button({ variant: 'ghost' })}
              onClick={() => day && setDay(addDays(day, 1))}
            >
              {t('form.nextDay')}
            </button>
          </div>
        ) : null}
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: 3, alignItems: 'center' })}>
          <label className={css({ display: 'flex', gap: 2, alignItems: 'center', fontSize: 'sm' })}>
            <input
              type="checkbox"
              checked={enviarRecordatorio}
              onChange={(e) => setReminder(e.target.checked)}
            />
            {t('form.reminder')}
          </label>
          <Field label={t('form.before')}>
            {(id) => (
              <select
                id={id}
                className={control}
                value={enviarAntesDe}
                disabled={!enviarRecordatorio}
                onChange={(e) => setBefore(e.target.value as EnviarAntesDe)}
              >
                <option value="10_MIN">{t('form.before10')}</option>
                <option value="5_MIN">{t('form.before5')}</option>
              </select>
            )}
          </Field>
        </div>
        {conflicts.data && conflicts.data.length > 0 ? (
          <div
            role="status"
            className={css({
              p: 3,
              borderRadius: 'md',
              bg: '#fff4d6',
              color: '#5c4300',
              fontSize: 'sm',
            })}
          >
            <p className={css({ fontWeight: 'bold' })}>{t('form.conflictTitle')}</p>
            <ul>
              {conflicts.data.map((c) => (
                <li key={`${c.id}-${c.fechaInicio}-${c.nombreAsesor}`}>
                  {t('form.conflictItem', {
                    time: `${clock(timeOf(c.fechaInicio, zone))}–${clock(timeOf(c.fechaFin, zone))}`,
                    title: c.titulo,
                    lead: c.nombreLead,
                    why: c.por
                      .map((p) =>
                        p === 'asesor' ? t('form.conflictAdviser') : t('form.conflictShowroom'),
                      )
                      .join(', '),
                  })}
                </li>
              ))}
            </ul>
            <p>{t('form.conflictGoAhead')}</p>
          </div>
        ) : null}
        {problem ? (
          <p role="alert" className={css({ color: '#a4161a', fontWeight: 'semibold' })}>
            {problem}
          </p>
        ) : null}
        {confirming ? (
          <div
            role="alertdialog"
            aria-label={t('form.confirmCancel')}
            className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}
          >
            <p>{t('form.confirmCancel')}</p>
            <div className={css({ display: 'flex', gap: 2, flexWrap: 'wrap' })}>
              <button
                type="button"
                className={button()}
                style={{ background: '#a4161a', color: '#fff' }}
                onClick={() => cancel.mutate()}
                disabled={cancel.isPending}
              >
                {t('form.confirmCancelYes')}
              </button>
              <button
                type="button"
                className={button({ variant: 'ghost' })}
                onClick={() => setConfirming(false)}
              >
                {t('form.keepIt')}
              </button>
            </div>
          </div>
        ) : null}
        <div
          className={css({ display: 'flex', flexWrap: 'wrap', gap: 2, justifyContent: 'flex-end' })}
        >
          {cita ? (
            <>
              <a
                className={button({ variant: 'ghost' })}
                href={icsUrl(corporateId, cita.id, i18n.language)}
                download
              >
                {t('form.download')}
              </a>
              {cita.activo ? (
                <button
                  type="button"
                  className={button({ variant: 'ghost' })}
                  onClick={() => setConfirming(true)}
                >
                  {t('form.cancelAppointment')}
                </button>
              ) : null}
            </>
          ) : null}
          <button
            type="submit"
            className={button()}
            disabled={save.isPending || cita?.activo === false}
          >
            {save.isPending ? t('form.saving') : t('form.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
