/**
 * Lead forms' pure rules, shared by the walk-in registration and the lead editor (its form and
 * its machine): the values as typed, their validation with the lead's own rules (so the form
 * says exactly what the server would), the changes an edit sends and the fields a newer stored
 * version changed. No I/O, no i18n: the UI reads the server's field errors and binds the inputs
 * (`src/ui/features/leads/utils/lead-form.ts`).
 */

import {
  LEAD_EDITABLE_FIELDS,
  normalizeLeadFields,
  validateLeadFields,
  type Lead,
  type LeadEditableField,
  type LeadFields,
} from './lead';

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

/** The normalised fields that differ from `base` (what an update sends besides `leadAnterior`). */
export function changesFrom(base: Lead, values: LeadFormValues): Partial<LeadFields> {
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
