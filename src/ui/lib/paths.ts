/** Paths of pages more than one feature links to (spec §2). */

import { corporatePath } from '../../core/navigation';

/** The clients list: `/corporativos/{slug}/clientes`. */
export const clientsPath = (corporateSlug: string) => corporatePath(corporateSlug, 'clientes');

/** The lead detail, deep-linkable: `/corporativos/{slug}/clientes/{leadId}`. */
export const leadPath = (corporateSlug: string, leadId: string) =>
  `${clientsPath(corporateSlug)}/${encodeURIComponent(leadId)}`;

/** Paths of a development's pages. */
export function developmentPath(corporateSlug: string, developmentSlug: string, page = '') {
  const base = `/corporativos/${corporateSlug}/desarrollos/${developmentSlug}`;
  return page ? `${base}/${page}` : base;
}

export function publicDevelopmentPath(corporateSlug: string, developmentSlug: string, page = '') {
  return `/public${developmentPath(corporateSlug, developmentSlug, page)}`;
}
