/**
 * The share links of a saved quotation (spec §7 `…/cotizaciones/:id/compartir`,
 * `…/compartidos`): make one, list them, revoke one. The quotation page and the lead's
 * quotations both manage them.
 */

import { queryOptions } from '@tanstack/react-query';
import { api } from './api';

/** The answer of `POST …/cotizaciones/:id/compartir`. */
export interface ShareAnswer {
  url: string;
  token: string;
  expiraEn: string;
}

/** One share link of a quotation (`GET …/cotizaciones/:id/compartidos`, ISO instants). */
export interface ShareLinkAnswer {
  nonce: string;
  creadoEn: string;
  expiraEn: string;
  revocadoEn: string | null;
  url: string;
}

export type ShareLinkState = 'active' | 'expired' | 'revoked';

/** Whether a link still opens at `now`; a revoked link says so even once it has expired too. */
export function shareLinkState(link: ShareLinkAnswer, now: number): ShareLinkState {
  if (link.revocadoEn !== null) return 'revoked';
  return Date.parse(link.expiraEn) <= now ? 'expired' : 'active';
}

const quotationPath = (idCorporativo: string, idCotizacion: string) =>
  `/api/corporativos/${encodeURIComponent(idCorporativo)}/cotizaciones/${encodeURIComponent(idCotizacion)}`;

/** The quotation's share links, newest first; sharing and revoking invalidate it. */
export const quotationSharesQuery = (idCorporativo: string, idCotizacion: string) =>
  queryOptions({
    queryKey: ['api', 'cotizacionCompartidos', { idCorporativo, idCotizacion }] as const,
    queryFn: ({ signal }) =>
      api<ShareLinkAnswer[]>(`${quotationPath(idCorporativo, idCotizacion)}/compartidos`, {
        signal,
      }),
  });

export function shareQuotation(idCorporativo: string, idCotizacion: string) {
  return api<ShareAnswer>(
    `/api/corporativos/${encodeURIComponent(idCorporativo)}/cotizaciones/${encodeURIComponent(idCotizacion)}/compartir`,
    { method: 'POST', body: {} },
  );
}

/** Turns a share link off; revoking a revoked link answers the same link. */
export function revokeShare(idCorporativo: string, idCotizacion: string, nonce: string) {
  return api<ShareLinkAnswer>(
    `${quotationPath(idCorporativo, idCotizacion)}/compartidos/${encodeURIComponent(nonce)}`,
    { method: 'DELETE' },
  );
}
