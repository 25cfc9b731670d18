/**
 * Unit holds ("apartado"): hold a unit for a lead, extend or release the hold
 * (`/api/corporativos/:c/unidades/:u/apartado`). The answer is the unit as it is now; it
 * replaces the cached one at once (the live stream tells every other browser).
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Unit } from '../../../../core/types';
import { api } from '../../../lib/api';
import type { ClusterWithUnits } from '../../../lib/catalogue';

function replaceUnit(client: QueryClient, unit: Unit) {
  client.setQueriesData<ClusterWithUnits[]>({ queryKey: ['api', 'wsObtenerClusters'] }, (old) =>
    old?.map((cluster) =>
      cluster.unidades.some((u) => u.id === unit.id)
        ? { ...cluster, unidades: cluster.unidades.map((u) => (u.id === unit.id ? unit : u)) }
        : cluster,
    ),
  );
  void client.invalidateQueries({ queryKey: ['api', 'historialUnidad', { idUnidad: unit.id }] });
}

export function useUnitHold(idCorporativo: string, unit: Pick<Unit, 'id' | 'status'>) {
  const client = useQueryClient();
  const url = `/api/corporativos/${encodeURIComponent(idCorporativo)}/unidades/${encodeURIComponent(unit.id)}/apartado`;
  const onSuccess = (updated: Unit) => replaceUnit(client, updated);
  const hold = useMutation({
    mutationFn: (idLead: string) =>
      api<Unit>(url, {
        method: 'POST',
        // What the adviser saw: a unit taken meanwhile answers 409 instead of being held twice.
        body: { idLead, statusAnterior: unit.status ?? null },
      }),
    onSuccess,
  });
  const extend = useMutation({
    mutationFn: (horas: number) => api<Unit>(url, { method: 'PUT', body: { horas } }),
    onSuccess,
  });
  const release = useMutation({
    mutationFn: () => api<Unit>(url, { method: 'DELETE' }),
    onSuccess,
  });
  return { hold, extend, release };
}
