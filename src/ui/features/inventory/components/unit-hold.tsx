/**
 * A unit's hold in its detail: "Apartado por {adviser} para {client} · quedan 1 h 20 min" with a
 * live countdown, and the actions the viewer may take — an adviser holds an available unit for
 * one of their leads ("Apartar"; the lead is searched on the server as they type, the pinned
 * client comes chosen), the holder or a manager releases it ("Liberar"), a manager
 * extends it ("Extender"). Errors reach the user as the query client's toasts.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import type { Unit } from '../../../../core/types';
import { LeadPicker } from '../../../components/lead-picker';
import { leadByIdQuery, type PickableLead } from '../../../lib/lead-search';
import { usePinnedLead } from '../../../lib/pinned-lead';
import { toast } from '../../../lib/toast';
import { useUnitHold } from '../api/holds';
import { useNow } from '../../../lib/use-now';
import { holdLeftText } from '../utils/hold-time';

/** Who is looking and what they may do with holds (from the core's permissions). */
export interface HoldViewer {
  idCorporativo: string;
  userId: string;
  /** May hold a unit for a lead (not a host administrator). */
  mayHold: boolean;
  /** A manager: may release anyone's hold and extend holds. */
  mayManage: boolean;
  /** The corporate's hold time, the extension's default. */
  hours: number;
}

const field = css({
  flex: 1,
  minW: 0,
  h: 10,
  px: 2,
  borderRadius: 'md',
  border: '1px solid token(colors.border)',
  bg: 'surface',
  fontSize: 'sm',
});

/** The hold line alone (any signed-in viewer of a held unit). */
export function HoldSummary({ apartado }: { apartado: NonNullable<Unit['apartado']> }) {
  const { t } = useTranslation('inventory');
  const now = useNow(30_000);
  return (
    <p data-testid="unit-hold" className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
      {t('hold.by', {
        adviser: apartado.nombreVendedor || '—',
        client: apartado.nombreLead || '—',
        left: holdLeftText(t, apartado.hastaEn, now),
      })}
    </p>
  );
}

export function UnitHoldPanel({
  unit,
  viewer,
  buttonClass: actionButton,
}: {
  unit: Unit;
  viewer: HoldViewer;
  /** The detail's action button style. */
  buttonClass: string;
}) {
  const { t } = useTranslation('inventory');
  const { hold, extend, release } = useUnitHold(viewer.idCorporativo, unit);
  const [picking, setPicking] = useState(false);
  const [picked, setPicked] = useState<PickableLead | null>(null);
  const [hours, setHours] = useState(String(viewer.hours));
  // The pinned client comes chosen: read by id, wherever it stands in the lead list.
  const pinnedId = usePinnedLead().leadId;
  const pinned = useQuery({
    ...leadByIdQuery(viewer.idCorporativo, pinnedId ?? ''),
    enabled: picking && !!pinnedId,
  });
  const chosen = picked ?? pinned.data ?? null;
  const leadId = useId();
  const hoursId = useId();
  const apartado = unit.apartado;
  const mayRelease = apartado && (apartado.idVendedor === viewer.userId || viewer.mayManage);
  const canHold = !apartado && viewer.mayHold && unit.status === 'Disponible';
  const parsedHours = Number(hours);
  const hoursValid = Number.isFinite(parsedHours) && parsedHours > 0 && parsedHours <= 720;

  if (!canHold && !mayRelease) return null;
  return (
    <section
      aria-label={t('hold.title')}
      className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}
    >
      {canHold && !picking ? (
        <div>
          <button
            type="button"
            className={actionButton}
            data-primary="true"
            onClick={() => setPicking(true)}
          >
            {t('hold.hold')}
          </button>
        </div>
      ) : null}
      {canHold && picking ? (
        <>
          <label htmlFor={leadId} className={css({ fontSize: 'sm', color: 'muted' })}>
            {t('hold.lead')}
          </label>
          {/* The search on its own line: the detail panel is narrow, a name needs the width. */}
          <LeadPicker
            id={leadId}
            idCorporativo={viewer.idCorporativo}
            selected={chosen}
            onSelect={setPicked}
            inputClassName={`${field} ${css({ w: '100%' })}`}
          />
          <div className={css({ display: 'flex', gap: 2, flexWrap: 'wrap' })}>
            <button
              type="button"
              className={actionButton}
              data-primary="true"
              disabled={!chosen || hold.isPending}
              onClick={() =>
                chosen &&
                hold.mutate(chosen.id, {
                  onSuccess: () => {
                    setPicking(false);
                    setPicked(null);
                    toast.success(t('hold.held'));
                  },
                })
              }
            >
              {t('hold.confirm')}
            </button>
            <button
              type="button"
              className={actionButton}
              onClick={() => {
                setPicking(false);
                setPicked(null);
              }}
            >
              {t('hold.cancel')}
            </button>
          </div>
        </>
      ) : null}
      {mayRelease ? (
        <div className={css({ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'end' })}>
          <button
            type="button"
            className={actionButton}
            disabled={release.isPending}
            onClick={() =>
              release.mutate(undefined, { onSuccess: () => toast.success(t('hold.released')) })
            }
          >
            {t('hold.release')}
          </button>
          {viewer.mayManage ? (
            <>
              <label htmlFor={hoursId} className={css({ fontSize: 'sm', color: 'muted' })}>
                {t('hold.hours')}
              </label>
              <input
                id={hoursId}
                className={`${field} ${css({ maxW: '5rem', flex: 'none' })}`}
                inputMode="numeric"
                value={hours}
                aria-invalid={!hoursValid}
                onChange={(e) => setHours(e.target.value)}
              />
              <button
                type="button"
                className={actionButton}
                disabled={!hoursValid || extend.isPending}
                onClick={() =>
                  extend.mutate(parsedHours, {
                    onSuccess: () => toast.success(t('hold.extended')),
                  })
                }
              >
                {t('hold.extend')}
              </button>
            </>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
