/**
 * A failed quotation save read into what the save-quotation machine acts on: the 409
 * LEAD_DUPLICATE answer (the new client's email or phone already belongs to a lead) with whose
 * lead it is, or any other failure with the message to show.
 */

import type {
  DuplicateClient,
  SaveQuotationFailure,
} from '../../../../machines/save-quotation.machine';
import { ApiRequestError } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';

/** The 409 LEAD_DUPLICATE answer read into what the panel keeps of it; null for other errors. */
export function duplicateOf(error: unknown): DuplicateClient | null {
  if (
    !(error instanceof ApiRequestError) ||
    error.status !== 409 ||
    error.errorCode !== 'LEAD_DUPLICATE'
  )
    return null;
  const first: unknown = Array.isArray(error.body) ? error.body[0] : error.body;
  const item = (first && typeof first === 'object' ? first : {}) as {
    propietario?: { nombre?: unknown };
    idLead?: unknown;
    propio?: unknown;
  };
  const leadId = typeof item.idLead === 'string' ? item.idLead : null;
  return {
    ownerName: typeof item.propietario?.nombre === 'string' ? item.propietario.nombre : '',
    leadId,
    own: leadId !== null && item.propio === true,
  };
}

/** A failed save as the save-quotation machine takes it. */
export function saveQuotationFailure(error: unknown): SaveQuotationFailure {
  const duplicate = duplicateOf(error);
  return duplicate
    ? { kind: 'duplicate', duplicate }
    : { kind: 'failed', message: errorMessage(error) };
}
