/**
 * The corporate aggregate's refusals as API errors, for every command on the corporate's stream
 * (showrooms, chat settings, legal data…): one mapping, so each refusal answers alike wherever
 * it comes from.
 */
import type { CorporateError } from '../../core/corporate';
import { ApiError, badRequest } from '../http/errors';

export function corporateErrorToApi(error: CorporateError): ApiError {
  switch (error.code) {
    case 'CORPORATE_NOT_FOUND':
      return new ApiError(404, 'CORPORATE_NOT_FOUND', 'corporate_not_found');
    case 'SHOWROOM_INVALID':
      return badRequest(
        error.campos.map((c) => ({
          path: c === 'nombre' ? c : `coordenadas.${c}`,
          code: 'invalid_value',
        })),
      );
    case 'CORPORATE_EXISTS':
    case 'CORPORATE_SETTINGS_INVALID':
      return badRequest();
    default: {
      const unhandled: never = error;
      throw new Error(`unknown corporate error ${(unhandled as { code: string }).code}`);
    }
  }
}
