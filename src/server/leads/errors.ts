/**
 * The leads area's answers to a refused request, in the spec's error shape. Out of scope and
 * absent look the same (404), so a caller learns nothing about leads they may not see.
 */
import type { LeadError } from '../../core/lead';
import { ApiError, badRequest } from '../http/errors';

export const leadNotFound = () => new ApiError(404, 'NOT_FOUND', 'not_found');

/** The notes calls' 404 (the spec's own text in Spanish, translated in English). */
export const documentNotFound = () =>
  new ApiError(404, 'DOCUMENT_NOT_FOUND', 'lead_document_not_found');

const noteNotFound = (key: string) =>
  new ApiError(404, 'NOTE_NOT_FOUND', 'note_not_found', { key });

/** The lead decider's refusals as HTTP answers; a stale edit carries the current lead. */
export function leadErrorToApi(error: LeadError): ApiError {
  switch (error.code) {
    case 'LEAD_NOT_FOUND':
    case 'LEAD_DELETED':
      return leadNotFound();
    case 'LEAD_EXISTS':
      return new ApiError(409, 'CONFLICT', 'conflict');
    case 'LEAD_STALE':
      return new ApiError(409, 'CONFLICT', 'conflict', {}, { lead: error.current });
    case 'LEAD_INVALID':
      return badRequest(error.issues.map((i) => ({ path: i.campo, code: i.code })));
    case 'NOTE_NOT_FOUND':
      return noteNotFound(error.key);
    case 'NOTE_INVALID':
      return badRequest([{ path: 'nota', code: 'invalid' }]);
    case 'MERGE_INVALID':
      return badRequest([{ path: 'idLeadDuplicado', code: 'invalid' }]);
    default: {
      const unhandled: never = error;
      throw new Error(`unknown lead error ${(unhandled as { code: string }).code}`);
    }
  }
}
