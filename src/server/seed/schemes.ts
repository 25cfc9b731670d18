/**
 * A payment scheme as the seeds write them (the demo's developments and seed:large's): its parts
 * as fractions, named as the spec's scheme screen names them.
 */
import type { PaymentScheme } from '../../core/types';
import type { SeededRandom } from './random';

export interface SchemeParts {
  descuento: number;
  enganche: number;
  diferido: number;
  mensualidades: number;
  /** How many monthly payments; left out of the scheme when undefined. */
  meses?: number;
  escrituracion: number;
  contraEntrega: number;
}

const part = (nombre: string, porcentaje: number) => ({ nombre, porcentaje });

/** One scheme; its id is the generator's next, so a seed stays the same run after run. */
export function seedScheme(
  r: SeededRandom,
  nombre: string,
  p: SchemeParts,
  idCluster?: string,
): PaymentScheme {
  const mensualidades = part('Mensualidades', p.mensualidades);
  return {
    id: `esq-${r.id8()}`,
    nombre,
    ...(idCluster === undefined ? {} : { idCluster }),
    descuento: part('Descuento', p.descuento),
    enganche: part('Enganche', p.enganche),
    diferido: part('Diferido', p.diferido),
    mensualidades:
      p.meses === undefined ? mensualidades : { ...mensualidades, numeroMensualidades: p.meses },
    escrituracion: part('Escrituración', p.escrituracion),
    contraEntrega: part('Contra entrega', p.contraEntrega),
  };
}
