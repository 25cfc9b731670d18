/**
 * What the development layout gives its pages (`/corporativos/$c/desarrollos/$d/*`): the
 * development, the corporate, the display settings resolved against the corporate's
 * currencies, the effective status colours and filter context, and whether the viewer
 * administers the inventory. Other features' development pages (the quotation) may read it too.
 */

import { createContext, useContext } from 'react';
import type { FilterContext } from '../../core/filters';
import type { Corporate, Development, Role, StatusColors, User } from '../../core/types';
import type { Display } from '../lib/figures';

export interface DevelopmentContextValue {
  corporate: Corporate;
  development: Development;
  user: User;
  role: Role | null;
  display: Display;
  colors: StatusColors;
  ctx: FilterContext;
  canAdminister: boolean;
}

const DevelopmentContext = createContext<DevelopmentContextValue | null>(null);

export const DevelopmentContextProvider = DevelopmentContext.Provider;

export function useDevelopmentContext(): DevelopmentContextValue {
  const value = useContext(DevelopmentContext);
  if (!value) throw new Error('useDevelopmentContext outside the development layout');
  return value;
}
