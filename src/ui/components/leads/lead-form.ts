/**
 * Lead forms' rules, shared by the walk-in registration and the lead editor: the values as typed,
 * their validation with the core's rules (so the form says exactly what the server would), the
 * server's own field errors read back, and the changes an edit sends.
 */

import {
  LEAD_EDITABLE_FIELDS,
  normalizeLeadFields,
  validateLeadFields,
  type Lead,
  type LeadEditableField,
} from '../../../core/lead';
import { ApiRequestError } from '../../lib/api';
import type { LeadChanges } from './lead-source';

/** Every editable field as the inputs hold it (empty string for nothing). */
export type LeadFormValues = Record<LeadEditableField, string>;

/** A field's error: the core's issue codes and the server's `unknown_value`. */
export type LeadFieldError =
  'required' | 'invalid_email' | 'invalid_phone' | 'too_long' | 'unknown_value';

export type LeadFormErrors = Partial<Record<LeadEditableField, LeadFieldError>>;

export const emptyLeadForm = (preset: Partial<LeadFormValues> = {}): LeadFormValues => ({
  nombre: '',
  apellidos: '',
  email: '',
  telefono: '',
  celular: '',
  notas: '',
  medioContacto: '',
  tipo: '',
  status: '',
  desarrollo: '',
  ...preset,
});

export function formValuesFromLead(lead: Lead): LeadFormValues {
  const out = emptyLeadForm();
  for (const campo of LEAD_EDITABLE_FIELDS) out[campo] = lead[campo] ?? '';
  return out;
}

/** Errors by field (none when valid): the name is required, email and phones well formed. */
export function validateLeadForm(values: LeadFormValues): LeadFormErrors {
  const errors: LeadFormErrors = {};
  for (const issue of validateLeadFields(normalizeLeadFields(values))) {
    errors[issue.campo] ??= issue.code;
  }
  return errors;
}

export const hasErrors = (errors: LeadFormErrors) => Object.keys(errors).length > 0;

const KNOWN_CODES = new Set<string>([
  'required',
  'invalid_email',
  'invalid_phone',
  'too_long',
  'unknown_value',
]);

/** The field errors of a 400 VALIDATION answer (`details: [{ path, code }]`), if it is one. */
export function fieldErrorsFromApi(error: unknown): LeadFormErrors | null {
  if (!(error instanceof ApiRequestError) || error.errorCode !== 'VALIDATION') return null;
  const first: unknown = Array.isArray(error.body) ? error.body[0] : error.body;
  const details = (first as { details?: unknown } | null)?.details;
  if (!Array.isArray(details)) return null;
  const errors: LeadFormErrors = {};
  for (const d of details as { path?: unknown; code?: unknown }[]) {
    const campo = d.path as LeadEditableField;
    if (typeof d.path === 'string' && (LEAD_EDITABLE_FIELDS as readonly string[]).includes(d.path))
      errors[campo] ??= (
        KNOWN_CODES.has(String(d.code)) ? d.code : 'unknown_value'
      ) as LeadFieldError;
  }
  return hasErrors(errors) ? errors : null;
}

/** The normalised fields that differ from `base` (what an update sends besides `leadAnterior`). */
export function changesFrom(base: Lead, values: LeadFormValues): LeadChanges {
  const next = normalizeLeadFields(values);
  const changes: Record<string, string | null> = {};
  for (const campo of LEAD_EDITABLE_FIELDS) {
    if ((next[campo] ?? null) !== (base[campo] ?? null)) changes[campo] = next[campo];
  }
  return changes;
}

/** The fields whose value the server's current lead has and the editor's base had not. */
export function conflictingFields(base: Lead, current: Lead): LeadEditableField[] {
  return LEAD_EDITABLE_FIELDS.filter((campo) => (base[campo] ?? null) !== (current[campo] ?? null));
}

/** What every field of a lead form takes from the form's state. */
export interface BoundLeadField {
  name: LeadEditableField;
  label: string;
  value: string;
  onChange: (e: { target: { value: string } }) => void;
  error: LeadFieldError | undefined;
}

/**
 * Binds fields to a form's state: `bind('email')` gives the field its name, label, value,
 * change handler and error, so each form only says what is particular to a field.
 */
export function leadFieldBinder(
  values: LeadFormValues,
  errors: LeadFormErrors,
  set: (campo: LeadEditableField) => (e: { target: { value: string } }) => void,
  label: (campo: LeadEditableField) => string,
): (campo: LeadEditableField) => BoundLeadField {
  return (campo) => ({
    name: campo,
    label: label(campo),
    value: values[campo],
    onChange: set(campo),
    error: errors[campo],
  });
}
