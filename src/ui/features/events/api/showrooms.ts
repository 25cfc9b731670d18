/** The corporate's showrooms (`wsObtenerShowrooms`), where appointments happen. */

import type { Showroom } from '../../../../core/types';
import { apiQuery } from '../../../lib/api';

export const showroomsQuery = (idCorporativo: string) =>
  apiQuery<Showroom[]>('wsObtenerShowrooms', { idCorporativo });
