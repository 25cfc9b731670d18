/**
 * A walk-in registration that meets a client the corporate already has: if that client has an
 * appointment today for the development, their arrival is recorded at once
 * (`POST …/citas/llegada`, appointments/arrivals.ts): the appointment is marked attended and its
 * adviser told. The front desk sees with whom and at what time; a known client without an
 * appointment today shows nothing more than the duplicate notice.
 */

import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { leadContactKeys, normalizeLeadFields } from '../../../../core/lead';
import { formatInstant } from '../../../../core/date-format';
import type { Corporate } from '../../../../core/types';
import { ApiRequestError, api } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { currentLanguage } from '../../../i18n';
import type { LeadFormValues } from '../utils/lead-form';

interface Arrival {
  id: string;
  fechaInicio: string;
  nombreAsesor: string;
}

type State =
  | { status: 'pending' }
  | { status: 'recorded'; arrival: Arrival }
  | { status: 'none' }
  | { status: 'failed'; message: string };

export function WalkInArrival({
  corporate,
  idDesarrollo,
  values,
}: {
  corporate: Corporate;
  idDesarrollo: string;
  values: LeadFormValues;
}) {
  const { t } = useTranslation('leads');
  const [state, setState] = useState<State>({ status: 'pending' });
  const sent = useRef<string | null>(null);
  const fields = normalizeLeadFields(values);
  const keys = leadContactKeys(fields);
  const key = `${idDesarrollo}|${keys.email}|${keys.phones.join(',')}`;

  useEffect(() => {
    // Once per captured contact (a re-render or React's double effect in development sends nothing).
    if (sent.current === key || !idDesarrollo) return;
    sent.current = key;
    setState({ status: 'pending' });
    api<Arrival>(`/api/corporativos/${encodeURIComponent(corporate.id)}/citas/llegada`, {
      method: 'POST',
      body: {
        idDesarrollo,
        ...(fields.email ? { email: fields.email } : {}),
        ...(fields.telefono ? { telefono: fields.telefono } : {}),
        ...(fields.celular ? { celular: fields.celular } : {}),
      },
    }).then(
      (arrival) => setState({ status: 'recorded', arrival }),
      (error: unknown) =>
        setState(
          error instanceof ApiRequestError && error.status === 404
            ? { status: 'none' }
            : { status: 'failed', message: errorMessage(error) },
        ),
    );
  }, [key, corporate.id, idDesarrollo, fields.email, fields.telefono, fields.celular]);

  if (state.status === 'none' || state.status === 'pending') return null;
  if (state.status === 'failed')
    return (
      <p role="alert" className={css({ mt: 3, color: 'danger' })}>
        {t('walkIn.arrivalFailed', { error: state.message })}
      </p>
    );
  const hora = formatInstant(
    state.arrival.fechaInicio,
    'time',
    currentLanguage(),
    corporate.zonaHoraria,
  );
  return (
    <p
      role="status"
      data-testid="walk-in-arrival"
      className={css({
        mt: 4,
        p: 3,
        borderRadius: 'lg',
        bg: '#dcfce7',
        color: '#14532d',
        fontWeight: 'semibold',
      })}
    >
      {t('walkIn.arrival', { hora, asesor: state.arrival.nombreAsesor })}
    </p>
  );
}
