/**
 * Quick capture of a client: name, last name, email, phone, contact channel (the corporate's
 * `mediosContacto`, Showroom first when offered) and development. Used by the showroom
 * registration (large touch targets, development preset) and by "New client" on the clients
 * page. Nothing is sent until the fields are valid; errors sit next to their field; a duplicate
 * shows who already looks after the person (and, for managers, what to do about it).
 */

import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { normalizeLeadFields, type Lead, type LeadEditableField } from '../../../../core/lead';
import type { Corporate } from '../../../../core/types';
import { developmentsQuery } from '../../../lib/catalogue';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { button } from '../../../components/styles';
import { DuplicateNotice, type DuplicateAnswer } from './duplicate-notice';
import { WalkInArrival } from './walk-in-arrival';
import { SelectField, TextField } from './lead-fields';
import {
  emptyLeadForm,
  fieldErrorsFromApi,
  hasErrors,
  leadFieldBinder,
  validateLeadForm,
  type LeadFormErrors,
  type LeadFormValues,
} from '../utils/lead-form';
import { useCreateLead } from '../api/lead-queries';
import { LeadDuplicateError } from '../api/lead-source';
import { errorMessage } from '../../../lib/errors';

const CAPTURE_FIELDS = ['nombre', 'apellidos', 'email', 'telefono'] as const;

/** The channel a walk-in gets by default: Showroom when the corporate offers it. */
export function defaultContactChannel(mediosContacto: readonly string[]): string {
  return mediosContacto.find((m) => m.toLowerCase() === 'showroom') ?? mediosContacto[0] ?? '';
}

export function LeadCaptureForm({
  corporate,
  developmentId,
  large = false,
  recordArrival = false,
  onCreated,
}: {
  corporate: Corporate;
  /** Preset development (the showroom's); the select still lets the user change it. */
  developmentId?: string;
  large?: boolean;
  /**
   * A walk-in at the showroom: a known client's appointment of today for the development is
   * marked attended and its adviser told (walk-in-arrival.tsx).
   */
  recordArrival?: boolean;
  onCreated: (lead: Lead) => void;
}) {
  const { t } = useTranslation('leads');
  const corporateLabel = useCorporateLabel();
  const developments = useQuery(developmentsQuery(corporate.id));
  const create = useCreateLead(corporate);
  const initial = () =>
    emptyLeadForm({
      medioContacto: defaultContactChannel(corporate.mediosContacto),
      desarrollo: developmentId ?? '',
    });
  const [values, setValues] = useState<LeadFormValues>(initial);
  const [errors, setErrors] = useState<LeadFormErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [duplicate, setDuplicate] = useState<{
    answer: DuplicateAnswer;
    values: LeadFormValues;
  } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);

  const set = (campo: LeadEditableField) => (e: { target: { value: string } }) => {
    const next = { ...values, [campo]: e.target.value };
    setValues(next);
    // After a first attempt, errors follow the typing.
    if (submitted) setErrors(validateLeadForm(next));
  };

  const focusFirstError = (found: LeadFormErrors) => {
    const first = [...CAPTURE_FIELDS, 'medioContacto', 'desarrollo'].find(
      (c) => found[c as LeadEditableField],
    );
    if (first) form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    setFailure(null);
    setDuplicate(null);
    const found = validateLeadForm(values);
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstError(found);
      return;
    }
    const fields = normalizeLeadFields(values);
    create.mutate(
      {
        nombre: fields.nombre,
        apellidos: fields.apellidos,
        email: fields.email,
        telefono: fields.telefono,
        medioContacto: fields.medioContacto,
        desarrollo: fields.desarrollo,
      },
      {
        onSuccess: (lead) => {
          setValues(initial());
          setErrors({});
          setSubmitted(false);
          onCreated(lead);
        },
        onError: (error) => {
          if (error instanceof LeadDuplicateError) {
            const { ownerName, leadId, own } = error;
            setDuplicate({ answer: { ownerName, leadId, own }, values });
            return;
          }
          const fromServer = fieldErrorsFromApi(error);
          if (fromServer) {
            setErrors(fromServer);
            focusFirstError(fromServer);
            return;
          }
          setFailure(errorMessage(error));
        },
      },
    );
  };

  const grid = css({
    display: 'grid',
    gridTemplateColumns: { base: '1fr', md: '1fr 1fr' },
    gap: large ? 5 : 4,
  });
  const developmentOptions = (developments.data ?? []).map((d) => ({
    value: d.id,
    label: d.nombre,
  }));
  if (developmentId && !developmentOptions.some((d) => d.value === developmentId)) {
    developmentOptions.push({ value: developmentId, label: t('fields.presetDevelopment') });
  }

  const bind = leadFieldBinder(values, errors, set, (campo) => t(`fields.${campo}`));

  return (
    <form ref={form} noValidate onSubmit={submit} aria-label={t('capture.formLabel')}>
      <div className={grid}>
        <TextField
          {...bind('nombre')}
          required
          aria-required="true"
          autoComplete="off"
          large={large}
        />
        <TextField {...bind('apellidos')} autoComplete="off" large={large} />
        <TextField
          {...bind('email')}
          type="email"
          inputMode="email"
          autoComplete="off"
          large={large}
        />
        <TextField
          {...bind('telefono')}
          type="tel"
          inputMode="tel"
          autoComplete="off"
          large={large}
        />
        <SelectField
          {...bind('medioContacto')}
          large={large}
          // The corporate's channel in the interface's language, stored as it is (issue 19).
          options={corporate.mediosContacto.map((m) => ({
            value: m,
            label: corporateLabel('medioContacto', m),
          }))}
        />
        <SelectField
          {...bind('desarrollo')}
          large={large}
          emptyLabel={t('fields.noDevelopment')}
          options={developmentOptions}
        />
      </div>
      {duplicate && recordArrival ? (
        <WalkInArrival
          corporate={corporate}
          idDesarrollo={duplicate.values.desarrollo || developmentId || ''}
          values={duplicate.values}
        />
      ) : null}
      {duplicate ? (
        <DuplicateNotice
          corporate={corporate}
          duplicate={duplicate.answer}
          values={duplicate.values}
          onDone={(lead) => {
            setDuplicate(null);
            setValues(initial());
            setSubmitted(false);
            onCreated(lead);
          }}
        />
      ) : null}
      {failure ? (
        <p role="alert" className={css({ mt: 4, color: 'danger', fontWeight: 'medium' })}>
          {failure}
        </p>
      ) : null}
      <div className={css({ mt: large ? 8 : 6, display: 'flex', justifyContent: 'flex-end' })}>
        <button
          type="submit"
          disabled={create.isPending}
          className={
            large
              ? css(button.raw({ size: 'lg' }), {
                  minH: 14,
                  fontSize: 'lg',
                  md: { w: 'auto', minW: '16rem' },
                })
              : button()
          }
        >
          {create.isPending ? t('capture.saving') : t('capture.submit')}
        </button>
      </div>
    </form>
  );
}
