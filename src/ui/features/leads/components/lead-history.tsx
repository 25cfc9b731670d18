/**
 * The change history of a lead (`wsObtenerHistorialCambios`): who changed which field from what
 * to what, and when, newest first. Ids are shown as names (statuses, developments, advisers).
 */

import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import type { LeadStatus } from '../../../../core/types';
import { useCorporateContext } from '../../../layouts/corporate-context';
import type { DevelopmentSummary } from '../../../lib/catalogue';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { useDateFormat } from '../../../lib/dates';
import { automaticTitle } from '../../../lib/appointment-title';
import { useLeadHistory, type LeadHistoryItem } from '../api/lead-queries';
import { isLeadTipo } from '../utils/lead-form';
import { sectionCard, sectionTitle } from '../utils/lead-styles';

export function LeadHistory({
  corporateId,
  leadId,
  statuses,
  developments,
}: {
  corporateId: string;
  leadId: string;
  statuses: LeadStatus[];
  developments: Pick<DevelopmentSummary, 'id' | 'nombre'>[];
}) {
  const { t } = useTranslation('leads');
  // The kinds' names, for an appointment's automatic title in the interface's language.
  const { t: tAppointments } = useTranslation('appointments');
  const history = useLeadHistory(corporateId, leadId);
  const format = useDateFormat(useCorporateContext().corporate.zonaHoraria);
  const corporateLabel = useCorporateLabel();

  const value = (entry: LeadHistoryItem, which: 'anterior' | 'nuevo'): string => {
    const v = entry[which];
    if (entry.campo === 'idVendedor') {
      const name = which === 'anterior' ? entry.nombreAnterior : entry.nombreNuevo;
      return name ?? (v ? String(v) : t('history.empty'));
    }
    if (entry.campo === 'cita') {
      // An appointment: its start (booked, moved, cancelled) or whether the client came.
      if (v === 'asistio' || v === 'no_asistio' || v === 'pendiente') return t(`history.${v}`);
      if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)) return format(v, 'dateTime');
    }
    if (typeof v === 'boolean') return v ? t('history.yes') : t('history.no');
    if (v === null || v === '') return t('history.empty');
    if (entry.campo === 'status') {
      const nombre = statuses.find((s) => s.id === v)?.nombre;
      return nombre ? corporateLabel('statusLead', nombre) : v;
    }
    if (entry.campo === 'medioContacto') return corporateLabel('medioContacto', v);
    if (entry.campo === 'tipo' && isLeadTipo(v)) return t(`tipos.${v}`);
    if (entry.campo === 'desarrollo') return developments.find((d) => d.id === v)?.nombre ?? v;
    return v;
  };

  /** The field's name; an appointment's entry names the appointment by its title. */
  const fieldLabel = (entry: LeadHistoryItem): string => {
    if (entry.campo !== 'cita' || entry.titulo === undefined) return t(`fields.${entry.campo}`);
    const titulo =
      entry.tituloAutomatico && entry.tipo
        ? automaticTitle(tAppointments, entry.tipo, entry.nombreLead ?? '')
        : entry.titulo;
    return t('history.appointment', { titulo });
  };

  return (
    <section aria-labelledby="lead-history-title" className={sectionCard}>
      <h3 id="lead-history-title" className={sectionTitle}>
        {t('history.title')}
      </h3>
      {history.isPending ? (
        <p className={css({ color: 'muted' })}>{t('history.loading')}</p>
      ) : (history.data ?? []).length === 0 ? (
        <p className={css({ color: 'muted' })}>{t('history.none')}</p>
      ) : (
        // A region that scrolls is reachable by keyboard (WCAG 2.1.1; axe scrollable-region-focusable).
        <ol
          aria-label={t('history.title')}
          tabIndex={0}
          className={css({
            listStyle: 'none',
            display: 'flex',
            flexDirection: 'column',
            maxH: '28rem',
            overflowY: 'auto',
          })}
        >
          {(history.data ?? []).map((entry, i) => (
            <li
              key={`${entry.fecha}-${entry.evento}-${entry.campo}-${i}`}
              data-testid="lead-history-entry"
              className={css({ py: 2, borderBottom: '1px solid token(colors.border)' })}
            >
              <p className={css({ fontSize: 'xs', color: 'muted' })}>
                {format(entry.fecha, 'dateTime')} ·{' '}
                {entry.nombreActor ?? (entry.actor ? t('notes.byColleague') : t('notes.byWebsite'))}
              </p>
              <p className={css({ fontSize: 'sm' })}>
                {t('history.change', {
                  campo: fieldLabel(entry),
                  anterior: value(entry, 'anterior'),
                  nuevo: value(entry, 'nuevo'),
                })}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
