/**
 * The comparator (spec §3 "comparator item (unit and prototype)"): up to four units or
 * prototypes side by side. Kept in local storage so it survives a reload, and cleared on logout
 * (spec §4) through the shell's session cleanup.
 */

import { useSyncExternalStore } from 'react';
import { registerSessionCleanup } from '../../lib/session-cleanup';
import type { Areas, UnitFeatures } from '../../../core/types';

export const COMPARATOR_KEY = 'vitrina:comparador';
export const COMPARATOR_MAX = 4;

export interface ComparatorItem {
  tipo: 'unidad' | 'prototipo';
  id: string;
  idDesarrollo: string;
  nombre: string;
  desarrollo: string;
  prototipo?: string;
  status?: string | null;
  /** List price in `divisa`, only when it may be shown. */
  precio?: number | null;
  divisa?: string;
  caracteristicas: UnitFeatures;
  metrajes: Areas;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let items: readonly ComparatorItem[] = read();

function read(): ComparatorItem[] {
  try {
    const raw = typeof localStorage === 'undefined' ? null : localStorage.getItem(COMPARATOR_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? (parsed as ComparatorItem[]).slice(0, COMPARATOR_MAX) : [];
  } catch {
    return [];
  }
}

function write(next: readonly ComparatorItem[]) {
  items = next;
  try {
    if (next.length === 0) localStorage.removeItem(COMPARATOR_KEY);
    else localStorage.setItem(COMPARATOR_KEY, JSON.stringify(next));
  } catch {
    // Storage unavailable: the comparator lasts for this page only.
  }
  listeners.forEach((l) => l());
}

const same = (a: Pick<ComparatorItem, 'tipo' | 'id'>, b: Pick<ComparatorItem, 'tipo' | 'id'>) =>
  a.tipo === b.tipo && a.id === b.id;

export type AddResult = 'added' | 'present' | 'full';

export const comparator = {
  items: () => items,
  has: (item: Pick<ComparatorItem, 'tipo' | 'id'>) => items.some((i) => same(i, item)),
  add(item: ComparatorItem): AddResult {
    if (items.some((i) => same(i, item))) return 'present';
    if (items.length >= COMPARATOR_MAX) return 'full';
    write([...items, item]);
    return 'added';
  },
  remove(item: Pick<ComparatorItem, 'tipo' | 'id'>) {
    write(items.filter((i) => !same(i, item)));
  },
  clear() {
    write([]);
  },
};

registerSessionCleanup('comparator', () => comparator.clear());

function subscribe(listener: Listener) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === COMPARATOR_KEY) {
      items = read();
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useComparator(): readonly ComparatorItem[] {
  return useSyncExternalStore(subscribe, () => items);
}
