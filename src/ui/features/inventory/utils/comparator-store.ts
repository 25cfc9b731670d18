/**
 * The comparator (spec §3 "comparator item (unit and prototype)"): up to four units or
 * prototypes side by side, one comparator per corporate and development. Kept in local storage
 * so it survives a reload, and cleared on logout (spec §4) through the shell's session cleanup.
 *
 * Only what identifies an item is stored: status, price and whether the price may show change
 * while the item waits in the comparator, so the comparator page reads them from the current
 * inventory (`comparator-view.ts`), never from here.
 */

import { useCallback, useSyncExternalStore } from 'react';
import { registerSessionCleanup } from '../../../lib/session-cleanup';

export const COMPARATOR_MAX = 4;
/** Keys are `vitrina:comparador:<idCorporativo>:<idDesarrollo>`. */
export const COMPARATOR_KEY_PREFIX = 'vitrina:comparador:';
/**
 * The one list every development shared before, whose items carried copies of their status and
 * price: its items move to their development's comparator the first time that one is read.
 */
export const LEGACY_COMPARATOR_KEY = 'vitrina:comparador';

/** Which comparator: the corporate's and development's ids. */
export interface ComparatorScope {
  idCorporativo: string;
  idDesarrollo: string;
}

export interface ComparatorItem {
  tipo: 'unidad' | 'prototipo';
  id: string;
  /** The name when it was added: names the item if it leaves the inventory. */
  nombre: string;
}

export function comparatorKey(scope: ComparatorScope): string {
  return `${COMPARATOR_KEY_PREFIX}${scope.idCorporativo}:${scope.idDesarrollo}`;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The identifying fields of a stored item, or null when it is not one. */
function itemOf(value: unknown): ComparatorItem | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if ((v.tipo !== 'unidad' && v.tipo !== 'prototipo') || typeof v.id !== 'string') return null;
  return { tipo: v.tipo, id: v.id, nombre: typeof v.nombre === 'string' ? v.nombre : v.id };
}

function parse(raw: string | null | undefined): unknown[] {
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

const same = (a: Pick<ComparatorItem, 'tipo' | 'id'>, b: Pick<ComparatorItem, 'tipo' | 'id'>) =>
  a.tipo === b.tipo && a.id === b.id;

function withoutDuplicates(list: readonly ComparatorItem[]): ComparatorItem[] {
  const out: ComparatorItem[] = [];
  for (const item of list) if (!out.some((i) => same(i, item))) out.push(item);
  return out.slice(0, COMPARATOR_MAX);
}

/** Moves the legacy list's items of this development into its comparator (see the key's doc). */
function adoptLegacyItems(store: Storage, scope: ComparatorScope, own: ComparatorItem[]) {
  const legacy = parse(store.getItem(LEGACY_COMPARATOR_KEY));
  if (legacy.length === 0) {
    store.removeItem(LEGACY_COMPARATOR_KEY);
    return own;
  }
  const mine = legacy.filter(
    (v) => (v as { idDesarrollo?: unknown } | null)?.idDesarrollo === scope.idDesarrollo,
  );
  // Entries that are no item at all belong to no development: they go.
  const rest = legacy.filter((v) => !mine.includes(v) && itemOf(v) !== null);
  const adopted = withoutDuplicates([
    ...own,
    ...mine.map(itemOf).filter((i): i is ComparatorItem => i !== null),
  ]);
  if (rest.length > 0) store.setItem(LEGACY_COMPARATOR_KEY, JSON.stringify(rest));
  else store.removeItem(LEGACY_COMPARATOR_KEY);
  if (adopted.length > 0) store.setItem(comparatorKey(scope), JSON.stringify(adopted));
  return adopted;
}

function read(scope: ComparatorScope): ComparatorItem[] {
  const store = storage();
  if (!store) return [];
  try {
    const own = withoutDuplicates(
      parse(store.getItem(comparatorKey(scope)))
        .map(itemOf)
        .filter((i): i is ComparatorItem => i !== null),
    );
    return store.getItem(LEGACY_COMPARATOR_KEY) === null
      ? own
      : adoptLegacyItems(store, scope, own);
  } catch {
    return [];
  }
}

type Listener = () => void;
/** Each comparator's items as last read or written, one stable array per key for React. */
const cache = new Map<string, readonly ComparatorItem[]>();
const listeners = new Map<string, Set<Listener>>();

function itemsOf(scope: ComparatorScope): readonly ComparatorItem[] {
  const key = comparatorKey(scope);
  let items = cache.get(key);
  if (!items) cache.set(key, (items = read(scope)));
  return items;
}

function notify(key: string) {
  listeners.get(key)?.forEach((l) => l());
}

function write(scope: ComparatorScope, next: readonly ComparatorItem[]) {
  const key = comparatorKey(scope);
  cache.set(key, next);
  try {
    if (next.length === 0) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(next));
  } catch {
    // Storage unavailable: the comparator lasts for this page only.
  }
  notify(key);
}

export type AddResult = 'added' | 'present' | 'full';

export const comparator = {
  items: itemsOf,
  has: (scope: ComparatorScope, item: Pick<ComparatorItem, 'tipo' | 'id'>) =>
    itemsOf(scope).some((i) => same(i, item)),
  add(scope: ComparatorScope, item: ComparatorItem): AddResult {
    const items = itemsOf(scope);
    if (items.some((i) => same(i, item))) return 'present';
    if (items.length >= COMPARATOR_MAX) return 'full';
    write(scope, [...items, { tipo: item.tipo, id: item.id, nombre: item.nombre }]);
    return 'added';
  },
  remove(scope: ComparatorScope, item: Pick<ComparatorItem, 'tipo' | 'id'>) {
    write(
      scope,
      itemsOf(scope).filter((i) => !same(i, item)),
    );
  },
  clear(scope: ComparatorScope) {
    write(scope, []);
  },
  /** Empties every comparator of this device (the logout). */
  clearAll() {
    const store = storage();
    if (store) {
      const keys: string[] = [];
      for (let i = 0; i < store.length; i++) {
        const key = store.key(i);
        if (key?.startsWith(COMPARATOR_KEY_PREFIX) || key === LEGACY_COMPARATOR_KEY) {
          keys.push(key);
        }
      }
      for (const key of keys) store.removeItem(key);
    }
    const cached = [...cache.keys()];
    cache.clear();
    for (const key of cached) notify(key);
  },
};

registerSessionCleanup('comparator', () => comparator.clearAll());

function subscribe(key: string, listener: Listener) {
  let set = listeners.get(key);
  if (!set) listeners.set(key, (set = new Set()));
  set.add(listener);
  // Another tab changed this comparator (or cleared the storage): read it again.
  const onStorage = (e: StorageEvent) => {
    if (e.key === key || e.key === null) {
      cache.delete(key);
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    set.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The items of one development's comparator, re-rendering when they change. */
export function useComparator(scope: ComparatorScope): readonly ComparatorItem[] {
  const key = comparatorKey(scope);
  const { idCorporativo, idDesarrollo } = scope;
  const sub = useCallback((l: Listener) => subscribe(key, l), [key]);
  const get = useCallback(
    () => itemsOf({ idCorporativo, idDesarrollo }),
    [idCorporativo, idDesarrollo],
  );
  return useSyncExternalStore(sub, get, get);
}
