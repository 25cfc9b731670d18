/** The corporate home's reads. */

import { apiQuery } from '../../../lib/api';
import type { DevelopmentSummary } from '../../../lib/catalogue';

/** Every development of the corporate, those without units too (the list hides them). */
export const homeDevelopmentsQuery = (idCorporativo: string) =>
  apiQuery<DevelopmentSummary[]>('wsObtenerDesarrollos', { idCorporativo });
