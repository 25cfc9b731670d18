/** Paths of the leads' pages (spec §2 `/corporativos/{slug}/clientes`). */

import { corporatePath } from '../../../core/navigation';

export const clientsPath = (corporateSlug: string) => corporatePath(corporateSlug, 'clientes');

/** The lead detail, deep-linkable: `/corporativos/{slug}/clientes/{leadId}`. */
export const leadPath = (corporateSlug: string, leadId: string) =>
  `${clientsPath(corporateSlug)}/${encodeURIComponent(leadId)}`;
