/**
 * Lead forms in the client: the pure rules (values, validation, changes, conflicting fields) are
 * the core's (`src/core/lead-form.ts`, also used by the lead editor's machine) and are re-exported
 * here; this file adds what only the UI needs: the server's own field errors read back from an
 * API answer, a failed save read into what the lead editor's machine acts on, and the binding of
 * fields to a form's state.
 */

import { LEAD_EDITABLE_FIELDS, type LeadEditableField } from '../../../../core/lead';
import {
  hasErrors,
  type LeadFieldError,
  type LeadFormErrors,
  type LeadFormValues,
} from '../../../../core/lead-form';
import type { LeadSaveFailure } from '../../../../machines/lead-editor.machine';
import { ApiRequestError } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { LeadConflictError, LeadGoneError } from '../api/lead-source';

export {
  changesFrom,
  conflictingFields,
  emptyLeadForm,
  formValuesFromLead,
  hasErrors,
  validateLeadForm,
  type LeadFieldError,
  type LeadFormErrors,
  type LeadFormValues,
} from '../../../../core/lead-form';

/**
 * The lead's kinds, the "Tipo" select (issue 19, defect 9). The spec names the field (§3 Lead
 * `tipo`) without its values, so the product fixes them: who the client is to the sale — a buyer
 * who will live there, an investor, or a tenant (units carry `precioRenta`). Stored in Spanish
 * like the corporate's other values; the screen shows them in the interface's language.
 */
export const LEAD_TIPOS = ['Comprador', 'Inversionista', 'Arrendatario'] as const;
export type LeadTipo = (typeof LEAD_TIPOS)[number];

export const isLeadTipo = (value: string): value is LeadTipo =>
  (LEAD_TIPOS as readonly string[]).includes(value);

/**
 * The Tipo select's choices: the fixed kinds, and a stored value outside them (a lead typed by
 * hand before, or brought by a CRM) kept as a choice of its own, so opening and saving the form
 * never loses it.
 */
export function leadTipoOptions(
  current: string,
  label: (tipo: LeadTipo) => string,
): { value: string; label: string }[] {
  const options: { value: string; label: string }[] = LEAD_TIPOS.map((tipo) => ({
    value: tipo,
    label: label(tipo),
  }));
  const stored = current.trim();
  if (stored && !isLeadTipo(stored)) options.push({ value: current, label: stored });
  return options;
}

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

/**
 * A failed save as the lead editor's machine takes it: the lead changed meanwhile (with its
 * current version), it is gone, the server refused fields, or the message to show.
 */
export function leadSaveFailure(error: unknown): LeadSaveFailure {
  if (error instanceof LeadConflictError) return { kind: 'conflict', current: error.current };
  if (error instanceof LeadGoneError) return { kind: 'gone' };
  const fromServer = fieldErrorsFromApi(error);
  return fromServer
    ? { kind: 'invalid', errors: fromServer }
    : { kind: 'failed', message: errorMessage(error) };
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
