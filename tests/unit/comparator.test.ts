import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultStatusColors } from '../../src/core/status';
import type { Prototype, Unit } from '../../src/core/types';
import { comparatorEntries } from '../../src/ui/features/inventory/utils/comparator-view';

/** A local storage of one page, enough for the comparator's store. */
class MemoryStorage implements Storage {
  private data = new Map<string, string>();
  get length() {
    return this.data.size;
  }
  clear() {
    this.data.clear();
  }
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  key(index: number) {
    return [...this.data.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.data.delete(key);
  }
  setItem(key: string, value: string) {
    this.data.set(key, String(value));
  }
}

let storage: MemoryStorage;
/** The store module afresh (its cache is per page), over `storage`. */
async function loadStore() {
  vi.resetModules();
  return import('../../src/ui/features/inventory/utils/comparator-store');
}

beforeEach(() => {
  storage = new MemoryStorage();
  vi.stubGlobal('localStorage', storage);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const alameda = { idCorporativo: 'corp-1', idDesarrollo: 'dev-alameda' };
const olivos = { idCorporativo: 'corp-1', idDesarrollo: 'dev-olivos' };
const otherCorporate = { idCorporativo: 'corp-2', idDesarrollo: 'dev-alameda' };

describe('comparator store', () => {
  it('keeps one comparator per corporate and development', async () => {
    const { comparator, comparatorKey } = await loadStore();
    expect(comparator.add(alameda, { tipo: 'unidad', id: 'u1', nombre: 'A101' })).toBe('added');
    expect(comparator.add(alameda, { tipo: 'unidad', id: 'u1', nombre: 'A101' })).toBe('present');
    expect(comparator.add(olivos, { tipo: 'prototipo', id: 'p1', nombre: 'Olivo' })).toBe('added');
    expect(comparator.items(alameda).map((i) => i.id)).toEqual(['u1']);
    expect(comparator.items(olivos).map((i) => i.id)).toEqual(['p1']);
    expect(comparator.items(otherCorporate)).toEqual([]);
    expect(JSON.parse(storage.getItem(comparatorKey(alameda))!)).toEqual([
      { tipo: 'unidad', id: 'u1', nombre: 'A101' },
    ]);
    comparator.clear(alameda);
    expect(storage.getItem(comparatorKey(alameda))).toBeNull();
    expect(comparator.items(olivos)).toHaveLength(1);
  });

  it('stores only what identifies an item, never its status or price', async () => {
    const { comparator, comparatorKey } = await loadStore();
    const stale = {
      tipo: 'unidad' as const,
      id: 'u1',
      nombre: 'A101',
      status: 'Disponible',
      precio: 4_350_000,
    };
    comparator.add(alameda, stale);
    const stored = storage.getItem(comparatorKey(alameda))!;
    expect(stored).not.toContain('precio');
    expect(stored).not.toContain('status');
  });

  it('holds at most four items', async () => {
    const { comparator, COMPARATOR_MAX } = await loadStore();
    for (let i = 0; i < COMPARATOR_MAX; i++) {
      expect(comparator.add(alameda, { tipo: 'unidad', id: `u${i}`, nombre: `U${i}` })).toBe(
        'added',
      );
    }
    expect(comparator.add(alameda, { tipo: 'unidad', id: 'u9', nombre: 'U9' })).toBe('full');
  });

  it('moves the old shared list to each development’s comparator, without its copies', async () => {
    storage.setItem(
      'vitrina:comparador',
      JSON.stringify([
        {
          tipo: 'unidad',
          id: 'u1',
          idDesarrollo: 'dev-alameda',
          nombre: 'A101',
          desarrollo: 'Torre Alameda',
          status: 'Disponible',
          precio: 1,
          caracteristicas: {},
          metrajes: {},
        },
        { tipo: 'prototipo', id: 'p1', idDesarrollo: 'dev-olivos', nombre: 'Olivo' },
        'garbage',
      ]),
    );
    const { comparator, comparatorKey, LEGACY_COMPARATOR_KEY } = await loadStore();
    expect(comparator.items(alameda)).toEqual([{ tipo: 'unidad', id: 'u1', nombre: 'A101' }]);
    expect(JSON.parse(storage.getItem(comparatorKey(alameda))!)).toEqual([
      { tipo: 'unidad', id: 'u1', nombre: 'A101' },
    ]);
    // What belongs to another development waits for it.
    expect(storage.getItem(LEGACY_COMPARATOR_KEY)).toContain('dev-olivos');
    expect(comparator.items(olivos)).toEqual([{ tipo: 'prototipo', id: 'p1', nombre: 'Olivo' }]);
    // Once every item found its development, the old list is gone.
    expect(storage.getItem(LEGACY_COMPARATOR_KEY)).toBeNull();
    comparator.clearAll();
    expect(storage.length).toBe(0);
  });

  it('survives a malformed stored list', async () => {
    const { comparator, comparatorKey } = await loadStore();
    storage.setItem(comparatorKey(alameda), '{not json');
    expect(comparator.items(alameda)).toEqual([]);
  });

  it('is emptied, every development of it, by the logout', async () => {
    const { comparator } = await loadStore();
    const { clearSessionState } = await import('../../src/ui/lib/session-cleanup');
    comparator.add(alameda, { tipo: 'unidad', id: 'u1', nombre: 'A101' });
    comparator.add(olivos, { tipo: 'unidad', id: 'u2', nombre: '1101' });
    storage.setItem('vitrina:idioma', 'en');
    clearSessionState();
    expect(comparator.items(alameda)).toEqual([]);
    expect(comparator.items(olivos)).toEqual([]);
    expect(storage.getItem('vitrina:idioma')).toBe('en');
    expect(storage.length).toBe(1);
  });
});

describe('comparator entries', () => {
  const colors = defaultStatusColors();
  const unit = (id: string, status: string, precio: number, idPrototipo = 'p1'): Unit => ({
    id,
    idDesarrollo: 'dev-alameda',
    idCluster: 'c',
    idPrototipo,
    nombre: id.toUpperCase(),
    nivel: 1,
    posicion: 1,
    status,
    precio,
    divisa: 'MXN',
    caracteristicas: { recamaras: 2, banios: 2, baniosMedios: 1, cajones: 1 },
    metrajes: { areaTotal: 96 },
  });
  const prototype = (id: string, activo = true): Prototype => ({
    id,
    idDesarrollo: 'dev-alameda',
    nombre: `Proto ${id}`,
    activo,
    clusters: ['c'],
    precio: 1,
    caracteristicas: { recamaras: 2, banios: 2, baniosMedios: 1, cajones: 1 },
    metrajes: { areaTotal: 96 },
  });
  const items = [
    { tipo: 'unidad' as const, id: 'u1', nombre: 'U1 then' },
    { tipo: 'unidad' as const, id: 'u2', nombre: 'U2' },
    { tipo: 'unidad' as const, id: 'gone', nombre: 'A999' },
    { tipo: 'prototipo' as const, id: 'p1', nombre: 'Proto p1' },
    { tipo: 'prototipo' as const, id: 'p2', nombre: 'Old type' },
  ];

  it('shows each unit’s current status and price, and hides a price its status hides', () => {
    const entries = comparatorEntries(items, {
      units: [unit('u1', 'Disponible', 5_100_000), unit('u2', 'Vendido', 4_000_000)],
      prototypes: [prototype('p1'), prototype('p2', false)],
      colors,
      divisa: 'MXN',
    });
    expect(entries[0]).toMatchObject({
      kind: 'unidad',
      nombre: 'U1',
      prototipo: 'Proto p1',
      status: { label: 'Disponible' },
      precio: 5_100_000,
    });
    expect(entries[1]).toMatchObject({ kind: 'unidad', status: { label: 'Vendido' } });
    expect(entries[1]).toHaveProperty('precio', undefined);
  });

  it('says which items left the inventory instead of showing old figures', () => {
    const entries = comparatorEntries(items, {
      units: [unit('u1', 'Disponible', 5_100_000)],
      prototypes: [prototype('p1'), prototype('p2', false)],
      colors,
      divisa: 'MXN',
    });
    expect(entries.map((e) => e.kind)).toEqual(['unidad', 'gone', 'gone', 'prototipo', 'gone']);
    expect(entries[2]).toEqual({ kind: 'gone', item: items[2], nombre: 'A999' });
    expect(entries[2]).not.toHaveProperty('precio');
  });

  it('gives a prototype the lowest price its units may show now', () => {
    const entries = comparatorEntries([items[3]!], {
      units: [
        unit('a', 'Vendido', 3_000_000),
        unit('b', 'Disponible', 4_500_000),
        unit('c', 'Disponible', 4_200_000),
        unit('d', 'Disponible', 1_000_000, 'p2'),
      ],
      prototypes: [prototype('p1')],
      colors,
      divisa: 'MXN',
    });
    expect(entries[0]).toMatchObject({ kind: 'prototipo', precio: 4_200_000, divisa: 'MXN' });
  });
});
