/** The quotation area's errors in the spec's shape `[{ errorCode, message, …extra }]`. */
import type { QuotationError } from '../../core/quotation';
import { ApiError } from '../http/errors';

/** Maps a pricing failure of the core to the API's error (400, or 403 for a hidden price). */
export function quotationErrorToApi(error: QuotationError): ApiError {
  switch (error.code) {
    case 'UNIT_NOT_QUOTABLE':
      return new ApiError(
        400,
        'UNIT_NOT_QUOTABLE',
        'unit_not_quotable',
        { status: error.status ?? '—' },
        { status: error.status },
      );
    case 'PRICE_NOT_VISIBLE':
      return new ApiError(403, 'PRICE_NOT_VISIBLE', 'price_not_visible');
    case 'SCHEME_NOT_FOUND':
      return new ApiError(400, 'SCHEME_NOT_FOUND', 'scheme_not_found');
    case 'SCHEME_INVALID':
      return new ApiError(400, 'SCHEME_INVALID', 'scheme_invalid', {}, { detalle: error.message });
    case 'OPTIONAL_NOT_FOUND':
      return new ApiError(400, 'OPTIONAL_NOT_FOUND', 'optional_not_found', {}, { id: error.id });
    case 'EXTRA_INVALID':
      return new ApiError(400, 'EXTRA_INVALID', 'extra_invalid', {}, { indice: error.index });
    case 'CURRENCY_NOT_FOUND':
      return new ApiError(
        400,
        'CURRENCY_NOT_FOUND',
        'currency_not_found',
        { codigo: error.codigo },
        { codigo: error.codigo },
      );
    default: {
      const unhandled: never = error;
      throw new Error(`unknown quotation error ${(unhandled as { code: string }).code}`);
    }
  }
}

export const quotationNotFound = () =>
  new ApiError(404, 'QUOTATION_NOT_FOUND', 'quotation_not_found');

export const shareNotFound = () => new ApiError(404, 'SHARE_NOT_FOUND', 'share_not_found');

export const unitNotFound = (status: 400 | 404) =>
  new ApiError(status, 'UNIT_NOT_FOUND', 'unit_not_found');

export const developmentNotFound = () =>
  new ApiError(404, 'DEVELOPMENT_NOT_FOUND', 'development_not_found');

export const clusterNotFound = () => new ApiError(404, 'CLUSTER_NOT_FOUND', 'cluster_not_found');

/** A lead the user may not quote for: absent or deleted (404), or another adviser's (403). */
export function leadAccessError(reason: 'not_found' | 'forbidden'): ApiError {
  return reason === 'forbidden'
    ? new ApiError(403, 'LEAD_FORBIDDEN', 'lead_forbidden')
    : new ApiError(404, 'LEAD_NOT_FOUND', 'lead_not_found');
}
