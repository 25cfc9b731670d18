/**
 * What the corporate layout gives every page below `/corporativos/$corporativo`:
 *
 * ```tsx
 * const { corporate, user, role } = useCorporateContext();
 * useCurrentDevelopment(development);              // top-bar title gets " | Torre Alameda"
 * <TopBarActions><ReportButton /></TopBarActions>  // rendered in the top bar's action slot
 * ```
 */

import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { Corporate, Development, Role, User } from '../../core/types';

export type CurrentDevelopment = Pick<Development, 'id' | 'slug' | 'nombre'>;

export interface CorporateContextValue {
  corporate: Corporate;
  user: User;
  /** The user's role in this corporate (null only for inconsistent data). */
  role: Role | null;
  /** The development of the current route, set by the development pages. */
  development: CurrentDevelopment | null;
  setDevelopment: (development: CurrentDevelopment | null) => void;
}

const CorporateContext = createContext<CorporateContextValue | null>(null);

export const CorporateContextProvider = CorporateContext.Provider;

export function useCorporateContext(): CorporateContextValue {
  const value = useContext(CorporateContext);
  if (!value) throw new Error('useCorporateContext outside the corporate layout');
  return value;
}

/** The corporate context when inside the corporate layout, else null (shared shell parts). */
export function useOptionalCorporateContext(): CorporateContextValue | null {
  return useContext(CorporateContext);
}

/** Declares the development the page shows (the top bar adds its name); cleared on unmount. */
export function useCurrentDevelopment(development: CurrentDevelopment | null | undefined) {
  const ctx = useContext(CorporateContext);
  const setDevelopment = ctx?.setDevelopment;
  const id = development?.id;
  const slug = development?.slug;
  const nombre = development?.nombre;
  useEffect(() => {
    if (!setDevelopment) return;
    setDevelopment(id && slug && nombre ? { id, slug, nombre } : null);
    return () => setDevelopment(null);
  }, [setDevelopment, id, slug, nombre]);
}

const TopBarSlotContext = createContext<{
  slot: HTMLElement | null;
  setSlot: (el: HTMLElement | null) => void;
} | null>(null);

export function TopBarSlotProvider({ children }: { children: ReactNode }) {
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  return (
    <TopBarSlotContext.Provider value={{ slot, setSlot }}>{children}</TopBarSlotContext.Provider>
  );
}

/** The element the top bar offers for page actions (the quotation report button, …). */
export function useTopBarSlotRef() {
  return useContext(TopBarSlotContext)?.setSlot;
}

/** Renders its children in the top bar's action slot while the page is shown. */
export function TopBarActions({ children }: { children: ReactNode }) {
  const slot = useContext(TopBarSlotContext)?.slot;
  return slot ? createPortal(children, slot) : null;
}
