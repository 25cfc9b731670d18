/**
 * A lead's CRM health (issue 17 point 6) on its detail: the sync state (pending, synced,
 * retrying, failed with the CRM's exact error such as `REQUIRED_FIELD_MISSING: Company`), the
 * attempts, a retry button, and the classifieds export (spec §7 lead export) with its result.
 * Hidden for a corporate without a CRM or an export (the call answers an error).
 */

import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from 'styled-system/css';
import { button, card } from '../../../components/styles';
import { toast } from '../../../lib/toast';
import { useOptionalCorporateContext } from '../../../layouts/corporate-context';
import { useDateFormat } from '../../../lib/dates';
import { useExportLead, useLeadCrmState, useRetryLeadSync } from '../api/crm';

const badge = css({
  display: 'inline-flex',
  alignItems: 'center',
  px: 2,
  py: 0.5,
  borderRadius: 'full',
  fontSize: 'xs',
  fontWeight: 'semibold',
  border: '1px solid',
  justifySelf: 'start',
  whiteSpace: 'nowrap',
});
const tone: Record<string, string> = {
  sincronizado: css({ color: '#1d5e22', bg: '#e8f3e9', borderColor: '#a3cfa6' }),
  pendiente: css({ color: '#2a3a55', bg: '#eef2f8', borderColor: '#b9c6da' }),
  reintentando: css({ color: '#6b4000', bg: '#fdf3e4', borderColor: '#e2b872' }),
  fallido: css({ color: '#8a1c1c', bg: '#fbeaea', borderColor: '#e3a5a5' }),
};

export function SyncBadge({ estado }: { estado: string }) {
  const { t } = useTranslation('crm');
  return (
    <span data-testid="sync-state" data-estado={estado} className={cx(badge, tone[estado])}>
      {t(`sync.state.${estado}`, { defaultValue: estado })}
    </span>
  );
}

export function LeadSyncPanel({ corporateId, leadId }: { corporateId: string; leadId: string }) {
  const { t } = useTranslation('crm');
  const formatDate = useDateFormat(useOptionalCorporateContext()?.corporate.zonaHoraria);
  const state = useLeadCrmState(corporateId, leadId);
  const retry = useRetryLeadSync(corporateId);
  const exporting = useExportLead(corporateId, leadId);
  const [mensaje, setMensaje] = useState('');
  const messageId = useId();
  const titleId = useId();

  if (!state.data) return null;
  const { sync, exportacion } = state.data;
  const when = (iso: string | null | undefined) => (iso ? formatDate(iso, 'dateTime') : null);

  return (
    <section
      aria-labelledby={titleId}
      data-testid="lead-sync"
      className={cx(
        card(),
        css({ p: { base: 4, md: 5 }, display: 'flex', flexDirection: 'column', gap: 3 }),
      )}
    >
      <h3 id={titleId} className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
        {t('sync.title')}
      </h3>
      {sync ? (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}>
          <p className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 })}>
            <span>{t('sync.label')}</span>
            <SyncBadge estado={sync.estado} />
            {sync.crmId ? (
              <span className={css({ fontSize: 'sm', color: 'muted' })}>
                {t('sync.crmId', { id: sync.crmId })}
              </span>
            ) : null}
          </p>
          {sync.error ? (
            <p role="alert" className={css({ fontSize: 'sm' })}>
              {t('sync.error')}{' '}
              <code
                data-testid="sync-error"
                className={css({
                  fontFamily: 'mono',
                  bg: 'rgba(0,0,0,0.05)',
                  px: 1,
                  borderRadius: 'sm',
                  wordBreak: 'break-word',
                })}
              >
                {sync.error}
              </code>
            </p>
          ) : null}
          <p className={css({ fontSize: 'sm', color: 'muted' })}>
            {t('sync.attempts', { count: sync.intentos })}
            {sync.ultimoIntento
              ? ` · ${t('sync.lastAttempt', { when: when(sync.ultimoIntento) })}`
              : ''}
          </p>
          {sync.estado === 'fallido' || sync.estado === 'reintentando' ? (
            <div>
              <button
                type="button"
                className={button({ variant: 'ghost' })}
                disabled={retry.isPending}
                onClick={() =>
                  retry.mutate(leadId, { onSuccess: () => toast.success(t('sync.retried')) })
                }
              >
                {t('sync.retry')}
              </button>
            </div>
          ) : null}
        </div>
      ) : (
        <p className={css({ fontSize: 'sm', color: 'muted' })}>{t('sync.none')}</p>
      )}

      <form
        className={css({
          display: 'flex',
          flexDirection: 'column',
          gap: 2,
          borderTopWidth: '1px',
          borderTopStyle: 'solid',
          borderTopColor: 'border',
          pt: 3,
        })}
        onSubmit={(e) => {
          e.preventDefault();
          exporting.mutate(mensaje.trim(), {
            onSuccess: () => {
              setMensaje('');
              toast.success(t('export.sent'));
            },
          });
        }}
      >
        <label htmlFor={messageId} className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
          {t('export.message')}
        </label>
        <input
          id={messageId}
          value={mensaje}
          maxLength={1000}
          onChange={(e) => setMensaje(e.target.value)}
          className={css({
            w: '100%',
            minH: 11,
            px: 3,
            borderRadius: 'lg',
            border: '1px solid',
            borderColor: 'border',
            bg: 'surface',
            _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
          })}
        />
        <div className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 3 })}>
          <button type="submit" className={button()} disabled={exporting.isPending}>
            {t('export.action')}
          </button>
          {exportacion ? (
            <span
              data-testid="export-state"
              className={css({
                display: 'flex',
                flexWrap: 'wrap',
                alignItems: 'center',
                gap: 2,
                fontSize: 'sm',
              })}
            >
              <SyncBadge estado={exportacion.estado} />
              {exportacion.fecha ? <span>{when(exportacion.fecha)}</span> : null}
              {exportacion.error ? <code>{exportacion.error}</code> : null}
            </span>
          ) : null}
        </div>
      </form>
    </section>
  );
}
