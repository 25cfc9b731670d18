/**
 * The server omits a price its status hides (issue 13, defect 9), so the live stream's cache
 * patches must not leave a unit shown without the price it now may show.
 */
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Unit } from '../../src/core/types';
import { applyLiveChange } from '../../src/ui/lib/live-stream';

const key = ['api', 'wsObtenerClusters', { idCorporativo: 'k', idDesarrollo: 'd' }];
const unit = (id: string, status: string, precio?: number) =>
  ({
    id,
    idDesarrollo: 'd',
    idCluster: 'c',
    idPrototipo: 'p',
    nombre: id,
    nivel: 1,
    posicion: 1,
    status,
    ...(precio === undefined ? {} : { precio }),
    caracteristicas: { recamaras: 2, banios: 2, baniosMedios: 0, cajones: 1 },
    metrajes: { areaTotal: 80 },
  }) as Unit;

function cached(...unidades: Unit[]) {
  const client = new QueryClient();
  client.setQueryData(key, [{ id: 'c', unidades }]);
  return client;
}

describe('live changes of units whose price the server hid', () => {
  it('a status change of a unit that came without its price reads the units again', () => {
    const client = cached(unit('a', 'Vendido'));
    applyLiveChange(client, {
      type: 'UnitStatusChanged',
      corporateId: 'k',
      idUnidad: 'a',
      status: 'Disponible',
    });
    expect(client.getQueryState(key)!.isInvalidated).toBe(true);
  });

  it('a price change without its price (hidden from this viewer) reads the units again', () => {
    const client = cached(unit('a', 'Disponible', 5));
    applyLiveChange(client, { type: 'UnitPriceChanged', corporateId: 'k', idUnidad: 'a' });
    expect(client.getQueryState(key)!.isInvalidated).toBe(true);
  });

  it('a status change of a unit with its price patches in place', () => {
    const client = cached(unit('a', 'Disponible', 5));
    applyLiveChange(client, {
      type: 'UnitStatusChanged',
      corporateId: 'k',
      idUnidad: 'a',
      status: 'Vendido',
    });
    expect(client.getQueryState(key)!.isInvalidated).toBe(false);
    expect(client.getQueryData<{ unidades: Unit[] }[]>(key)![0]!.unidades[0]!.status).toBe(
      'Vendido',
    );
  });
});
