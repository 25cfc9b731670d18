/**
 * One generated development for `npm run seed:large` (large.ts and large-scale.ts): every event
 * of it, drawn from a seeded generator, to append through the store (the catalogue projection
 * builds its read models).
 */
import type {
  Cluster,
  Development,
  Optional,
  PaymentScheme,
  Prototype,
  Unit,
  UnitStatus,
} from '../../core/types';
import { streams } from '../catalogue/events';
import type { AppendRequest, NewEvent } from '../store/event-store';
import type { SeededRandom } from './random';
import { seedScheme } from './schemes';

export const DEV_SLUG = 'gran-torre';

const STATUS_WEIGHTS: [UnitStatus, number][] = [
  ['Disponible', 62],
  ['Apartado', 8],
  ['Bloqueado', 4],
  ['Reservado', 6],
  ['Vendido', 14],
  ['No Disponible', 2],
  ['Incompleto', 2],
  ['Sin Estatus', 2],
];

const pickStatus = (r: SeededRandom): UnitStatus => r.weighted(STATUS_WEIGHTS);

/**
 * The events of one large development: its document, towers of up to 400 units, four prototypes
 * and `count` units (seed:large's `gran-torre`, and each development of the scale mode).
 */
export function buildDevelopment(
  r: SeededRandom,
  corporateId: string,
  count: number,
  at: () => Date,
  name: { slug: string; nombre: string } = { slug: DEV_SLUG, nombre: 'Gran Torre' },
) {
  const devId = `dev-${r.id8()}`;
  const towers = Math.max(1, Math.ceil(count / 400));
  const perTower = Math.ceil(count / towers);
  const perLevel = 20;
  const clusters: Cluster[] = Array.from({ length: towers }, (_, i) => ({
    id: `clu-${r.id8()}`,
    idDesarrollo: devId,
    nombre: `Torre ${String.fromCharCode(65 + (i % 26))}${i >= 26 ? Math.floor(i / 26) : ''}`,
    niveles: Math.ceil(perTower / perLevel),
    unidadesPorNivel: perLevel,
  }));
  const clusterIds = clusters.map((c) => c.id);
  const plans = [
    { nombre: 'Estudio', recamaras: 1, banios: 1, cajones: 1, area: 48, precio: 2_600_000 },
    { nombre: 'Loft', recamaras: 1, banios: 1, cajones: 1, area: 62, precio: 3_400_000 },
    { nombre: 'Doble', recamaras: 2, banios: 2, cajones: 1, area: 86, precio: 4_900_000 },
    { nombre: 'Familiar', recamaras: 3, banios: 2, cajones: 2, area: 118, precio: 6_800_000 },
  ];
  const prototypes: Prototype[] = plans.map((p) => ({
    id: `pro-${r.id8()}`,
    idDesarrollo: devId,
    nombre: p.nombre,
    activo: true,
    clusters: clusterIds,
    precio: p.precio,
    metrajes: { areaTotal: p.area, areaInterior: Math.round(p.area * 0.88) },
    caracteristicas: {
      recamaras: p.recamaras,
      banios: p.banios,
      baniosMedios: 0,
      cajones: p.cajones,
    },
  }));
  const esquemasPago: PaymentScheme[] = [
    seedScheme(r, 'Contado', {
      descuento: 0.07,
      enganche: 1,
      diferido: 0,
      mensualidades: 0,
      escrituracion: 0,
      contraEntrega: 0,
    }),
    seedScheme(r, '20/80', {
      descuento: 0.02,
      enganche: 0.1,
      diferido: 0,
      mensualidades: 0.1,
      meses: 18,
      escrituracion: 0.02,
      contraEntrega: 0.78,
    }),
    seedScheme(
      r,
      '20/80',
      {
        descuento: 0.04,
        enganche: 0.1,
        diferido: 0.05,
        mensualidades: 0.05,
        meses: 12,
        escrituracion: 0,
        contraEntrega: 0.8,
      },
      clusterIds[0],
    ),
  ];
  const opcionales: Optional[] = [
    { id: `opc-${r.id8()}`, nombre: 'Bodega', precio: 150_000 },
    { id: `opc-${r.id8()}`, nombre: 'Cajón adicional', precio: 320_000 },
    {
      id: `opc-${r.id8()}`,
      nombre: 'Acabados premium',
      precio: 380_000,
      idCluster: clusterIds[0]!,
    },
  ];
  const development: Development = {
    id: devId,
    slug: name.slug,
    idCorporativo: corporateId,
    nombre: name.nombre,
    nombreCorto: name.nombre,
    ubicacion: {
      direccion: 'Paseo de la Reforma 500',
      ciudad: 'Ciudad de México',
      estado: 'CDMX',
      coordenadas: { _latitude: 19.4265, _longitude: -99.1676 },
    },
    orden: 9,
    enApp: true,
    enWeb: true,
    divisa: 'MXN',
    categorias: ['cat-departamentos'],
    tagsBusqueda: ['tag-centro'],
    tagsEtapaEntrega: ['Preventa'],
    presentacion: {
      titulo: name.nombre,
      descripcion: `Desarrollo de carga con ${count} unidades en ${towers} torres.`,
    },
    amenidades: ['Gimnasio', 'Alberca', 'Coworking'],
    opcionales,
    galeria: { items: [] },
    documentos: [],
    esquemasPago,
    fechaEntrega: '2028-12-01',
  };

  const event = (type: string, data: unknown): NewEvent => ({
    id: r.uuid(),
    type,
    data,
    corporateId,
    actorId: 'seed:large',
    occurredAt: at(),
  });
  const requests: AppendRequest[] = [
    {
      streamId: streams.development(corporateId, devId),
      expectedVersion: 'any',
      events: [event('DevelopmentPublished', { development })],
    },
    ...clusters.map((cluster) => ({
      streamId: streams.cluster(corporateId, cluster.id),
      expectedVersion: 'any' as const,
      events: [event('ClusterAdded', { cluster })],
    })),
    ...prototypes.map((prototype) => ({
      streamId: streams.prototype(corporateId, prototype.id),
      expectedVersion: 'any' as const,
      events: [event('PrototypeAdded', { prototype })],
    })),
  ];
  for (let i = 0; i < count; i++) {
    const cluster = clusters[Math.floor(i / perTower)]!;
    const k = i % perTower;
    const nivel = Math.floor(k / perLevel) + 1;
    const posicion = (k % perLevel) + 1;
    const pi = (posicion + nivel) % prototypes.length;
    const proto = prototypes[pi]!;
    const unit: Unit = {
      id: `uni-${r.id8()}`,
      idDesarrollo: devId,
      idCluster: cluster.id,
      idPrototipo: proto.id,
      nombre: `${cluster.nombre.replace('Torre ', '')}${nivel}${String(posicion).padStart(2, '0')}`,
      nivel,
      posicion,
      status: pickStatus(r),
      categoria: 'Departamento',
      precio: Math.round((plans[pi]!.precio * (1 + (nivel - 1) * 0.01)) / 1000) * 1000,
      divisa: 'MXN',
      caracteristicas: { ...proto.caracteristicas, baniosTotales: proto.caracteristicas.banios },
      metrajes: { ...proto.metrajes },
    };
    requests.push({
      streamId: streams.unit(corporateId, unit.id),
      expectedVersion: 'any',
      events: [event('UnitListed', { unit })],
    });
  }
  return requests;
}
