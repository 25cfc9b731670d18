import type {
  Cluster,
  Corporate,
  Currency,
  Development,
  PaymentScheme,
  Prototype,
  Role,
  StatusColors,
  Unit,
  UnitStatus,
  User,
} from '../../core/types';
import type { CatalogueEventMap, CatalogueEventType, CorporateConfig } from '../catalogue/events';
import { streams } from '../catalogue/events';
import type { AppendRequest, NewEvent } from '../store/event-store';
import { buildingSvg, floorPlanSvg, logoSvg, simplePdf } from './illustrations';
import { seededRandom, type SeededRandom } from './random';
import { seedScheme } from './schemes';
import { demoTutorials } from './content';
import { readFileSync } from 'node:fs';
import { DEMO_ENGLISH_LABELS } from './labels';

export const DEMO_PASSWORD = 'Vitrina2026!';

export interface DemoAccount {
  email: string;
  description: string;
}

export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    email: 'admin@vitrina.demo',
    description: 'administrator, both corporates (favourite grupo-horizonte)',
  },
  {
    email: 'gerente@vitrina.demo',
    description: 'sales manager in grupo-horizonte (quote report, all leads)',
  },
  {
    email: 'asesor@vitrina.demo',
    description: 'sales adviser in grupo-horizonte (own leads only)',
  },
  {
    email: 'asesor2@vitrina.demo',
    description: 'second sales adviser in grupo-horizonte (own leads only)',
  },
  {
    email: 'hostess@vitrina.demo',
    description: 'host administrator in grupo-horizonte (lands on events)',
  },
  {
    email: 'broker@vitrina.demo',
    description: 'broker: approved in grupo-horizonte, pending in desarrollos-pacifico',
  },
  { email: 'asesor.pacifico@vitrina.demo', description: 'sales adviser in desarrollos-pacifico' },
];

/** The status colours of the spec's table (§4); Disponible is the one quotable, price-visible status. */
export function specStatusColors(
  overrides: Partial<Record<UnitStatus, string>> = {},
): StatusColors {
  const base: Record<UnitStatus, string> = {
    Disponible: '#2E9E4F',
    Apartado: '#F2C94C',
    Bloqueado: '#9AA0A6',
    Reservado: '#D64545',
    Vendido: '#B71C1C',
    'No Disponible': '#E57373',
    Incompleto: '#B5CC3A',
    'Sin Estatus': '#4A4F55',
    ...overrides,
  };
  const out: StatusColors = {};
  for (const [status, hexColor] of Object.entries(base)) {
    out[status] = {
      color: { hexColor },
      disponibilidad: status,
      esCotizable: status === 'Disponible',
      esPrecioVisible: status === 'Disponible',
    };
  }
  return out;
}

/** The demo corporates' roles (prefix: the corporate's), exported for the role-assignment tests. */
export const demoRoles = (prefix: string): Role[] => [
  {
    id: `${prefix}-admin`,
    nombre: 'Administrador',
    permisos: {
      generarReporteCotizaciones: true,
      activarAdminUsuarios: true,
      administrarInventario: true,
    },
    permisosLeads: { alcanceLeads: 'Todos' },
    permisosUsuarios: { crearUsuarios: true, editarUsuarios: true },
  },
  {
    id: `${prefix}-gerente`,
    nombre: 'Gerente de ventas',
    permisos: { generarReporteCotizaciones: true },
    permisosLeads: { alcanceLeads: 'Todos' },
    permisosUsuarios: { editarUsuarios: true },
  },
  {
    id: `${prefix}-asesor`,
    nombre: 'Asesor',
    permisos: {},
    permisosLeads: { alcanceLeads: 'Propios' },
    permisosUsuarios: {},
  },
  {
    id: `${prefix}-hostes`,
    nombre: 'Administrador de hostess',
    permisos: { adminHostes: true },
    permisosLeads: { alcanceLeads: 'Propios' },
    permisosUsuarios: {},
  },
  {
    id: `${prefix}-broker`,
    nombre: 'Broker',
    permisos: {},
    permisosLeads: { alcanceLeads: 'Propios' },
    permisosUsuarios: {},
  },
];

/** The real-estate agencies a demo broker picks from when registering (OTRO is added last). */
export const DEMO_AGENCIES = ['Century 21 Alameda', 'RE/MAX Horizonte', 'Coldwell Banker Bajío'];

/** The demo manager's `rolesAsignacion` in grupo-horizonte (role suffixes). */
export const DEMO_MANAGER_ASSIGNS = ['asesor', 'broker', 'hostes'] as const;

const MXN: Currency = { codigo: 'MXN', activo: true, nombre: 'Pesos', tipoCambio: 1 };
const USD: Currency = { codigo: 'USD', activo: true, nombre: 'Dólares', tipoCambio: 18.5 };

const leadStatuses = [
  { id: 'nuevo', nombre: 'Nuevo', color: '#1f6feb' },
  { id: 'contactado', nombre: 'Contactado', color: '#8250df' },
  { id: 'visita', nombre: 'Visita agendada', color: '#bf8700' },
  { id: 'negociacion', nombre: 'Negociación', color: '#d4700b' },
  { id: 'cerrado', nombre: 'Cerrado', color: '#1a7f37' },
  { id: 'perdido', nombre: 'Perdido', color: '#6e7781' },
];

const mediosContacto = [
  'Showroom',
  'Sitio web',
  'Teléfono',
  'WhatsApp',
  'Referido',
  'Redes sociales',
];

interface DevelopmentPlan {
  slug: string;
  nombre: string;
  nombreCorto: string;
  hue: number;
  orden: number;
  ciudad: string;
  estado: string;
  direccion: string;
  lat: number;
  lng: number;
  divisa: string;
  categorias: string[];
  tags: string[];
  etapas: string[];
  clusters: {
    nombre: string;
    niveles: number;
    unidadesPorNivel: number;
    etapa?: string;
    /** A stage of houses: its streets, one per `nivel` (core/site-plan.ts). */
    calles?: string[];
  }[];
  /** What the units are: 'Departamento' (a tower's floors) unless a plan of houses says 'Casa'. */
  categoriaUnidad?: string;
  prototypes: {
    nombre: string;
    recamaras: number;
    banios: number;
    baniosMedios: number;
    cajones: number;
    area: number;
    precio: number;
  }[];
  amenidades: string[];
  destacado: boolean;
  fechaEntrega: string;
}

const horizontePlans: DevelopmentPlan[] = [
  {
    slug: 'torre-alameda',
    nombre: 'Torre Alameda',
    nombreCorto: 'Alameda',
    hue: 200,
    orden: 1,
    ciudad: 'Ciudad de México',
    estado: 'CDMX',
    direccion: 'Av. Juárez 88, Centro',
    lat: 19.4352,
    lng: -99.1446,
    divisa: 'MXN',
    categorias: ['cat-departamentos', 'cat-preventa'],
    tags: ['tag-centro', 'tag-vista', 'tag-roof'],
    etapas: ['Preventa', 'Entrega 2027'],
    clusters: [
      { nombre: 'Torre A', niveles: 16, unidadesPorNivel: 8 },
      { nombre: 'Torre B', niveles: 15, unidadesPorNivel: 8 },
    ],
    prototypes: [
      {
        nombre: 'Estudio',
        recamaras: 1,
        banios: 1,
        baniosMedios: 0,
        cajones: 1,
        area: 48,
        precio: 2_650_000,
      },
      {
        nombre: 'Alameda 2R',
        recamaras: 2,
        banios: 2,
        baniosMedios: 0,
        cajones: 1,
        area: 82,
        precio: 4_350_000,
      },
      {
        nombre: 'Alameda 2R Plus',
        recamaras: 2,
        banios: 2,
        baniosMedios: 1,
        cajones: 2,
        area: 96,
        precio: 5_400_000,
      },
      {
        nombre: 'Alameda 3R',
        recamaras: 3,
        banios: 2,
        baniosMedios: 1,
        cajones: 2,
        area: 124,
        precio: 7_200_000,
      },
      {
        nombre: 'Penthouse',
        recamaras: 4,
        banios: 4,
        baniosMedios: 1,
        cajones: 4,
        area: 240,
        precio: 14_900_000,
      },
    ],
    amenidades: [
      'Alberca',
      'Gimnasio',
      'Roof garden',
      'Coworking',
      'Seguridad 24/7',
      'Salón de eventos',
    ],
    destacado: true,
    fechaEntrega: '2027-12-15',
  },
  {
    slug: 'residencial-los-olivos',
    nombre: 'Residencial Los Olivos',
    nombreCorto: 'Los Olivos',
    hue: 95,
    orden: 2,
    ciudad: 'Querétaro',
    estado: 'Querétaro',
    direccion: 'Camino Real 1200, El Refugio',
    lat: 20.6597,
    lng: -100.3927,
    divisa: 'MXN',
    categorias: ['cat-casas'],
    tags: ['tag-jardin', 'tag-familia'],
    etapas: ['Etapa 1 entregada', 'Etapa 2 en obra', 'Etapa 3 preventa'],
    clusters: [
      {
        nombre: 'Etapa 1',
        niveles: 4,
        unidadesPorNivel: 10,
        etapa: 'Entregada',
        calles: ['Calle Olivo', 'Calle Encino', 'Calle Fresno', 'Calle Sauce'],
      },
      {
        nombre: 'Etapa 2',
        niveles: 4,
        unidadesPorNivel: 10,
        etapa: 'En obra',
        calles: ['Calle Roble', 'Calle Nogal', 'Calle Cedro', 'Calle Pino'],
      },
      {
        nombre: 'Etapa 3',
        niveles: 4,
        unidadesPorNivel: 10,
        etapa: 'Preventa',
        calles: ['Calle Laurel', 'Calle Álamo', 'Calle Ciprés', 'Calle Arce'],
      },
    ],
    // Houses (issue 19, defect 10): drawn as a site plan, lots along each stage's streets.
    categoriaUnidad: 'Casa',
    prototypes: [
      {
        nombre: 'Olivo',
        recamaras: 3,
        banios: 2,
        baniosMedios: 1,
        cajones: 2,
        area: 160,
        precio: 4_800_000,
      },
      {
        nombre: 'Olivo Plus',
        recamaras: 3,
        banios: 3,
        baniosMedios: 1,
        cajones: 3,
        area: 195,
        precio: 6_300_000,
      },
      {
        nombre: 'Encino',
        recamaras: 4,
        banios: 3,
        baniosMedios: 1,
        cajones: 4,
        area: 260,
        precio: 9_900_000,
      },
    ],
    amenidades: ['Casa club', 'Parque central', 'Ciclovía', 'Acceso controlado'],
    destacado: false,
    fechaEntrega: '2028-06-30',
  },
];

const pacificoPlans: DevelopmentPlan[] = [
  {
    slug: 'playa-azul',
    nombre: 'Playa Azul',
    nombreCorto: 'Playa Azul',
    hue: 188,
    orden: 1,
    ciudad: 'Puerto Vallarta',
    estado: 'Jalisco',
    direccion: 'Blvd. Francisco Medina Ascencio 2500',
    lat: 20.6534,
    lng: -105.2253,
    divisa: 'MXN',
    categorias: ['cat-playa'],
    tags: ['tag-mar', 'tag-renta'],
    etapas: ['Preventa', 'Entrega 2027'],
    clusters: [
      { nombre: 'Edificio Coral', niveles: 10, unidadesPorNivel: 10 },
      { nombre: 'Edificio Arena', niveles: 10, unidadesPorNivel: 10 },
    ],
    prototypes: [
      {
        nombre: 'Brisa',
        recamaras: 1,
        banios: 1,
        baniosMedios: 1,
        cajones: 1,
        area: 62,
        precio: 3_900_000,
      },
      {
        nombre: 'Marea',
        recamaras: 2,
        banios: 2,
        baniosMedios: 0,
        cajones: 1,
        area: 95,
        precio: 6_100_000,
      },
      {
        nombre: 'Horizonte',
        recamaras: 3,
        banios: 3,
        baniosMedios: 1,
        cajones: 2,
        area: 150,
        precio: 9_800_000,
      },
      {
        nombre: 'Sky Villa',
        recamaras: 4,
        banios: 4,
        baniosMedios: 1,
        cajones: 3,
        area: 230,
        precio: 15_900_000,
      },
    ],
    amenidades: ['Club de playa', 'Alberca infinita', 'Spa', 'Concierge'],
    destacado: true,
    fechaEntrega: '2027-09-01',
  },
];

/** Status mix: every status present, most units available. */
const STATUS_WEIGHTS: [UnitStatus, number][] = [
  ['Disponible', 52],
  ['Apartado', 8],
  ['Bloqueado', 5],
  ['Reservado', 6],
  ['Vendido', 16],
  ['No Disponible', 4],
  ['Incompleto', 4],
  ['Sin Estatus', 5],
];

const pickStatus = (r: SeededRandom): UnitStatus => r.weighted(STATUS_WEIGHTS);

/** A file of seed/assets (the demo video and its poster: scripts/demo-video.mjs). */
function demoAsset(name: string): Buffer {
  return readFileSync(new URL(`./assets/${name}`, import.meta.url));
}

/** Builds the demo tenant's events. Ids come from a seeded generator: the same on every run. */
export class DemoBuilder {
  readonly requests: AppendRequest[] = [];
  private readonly r: SeededRandom;
  private clock: number;

  constructor(seed = 20261122, start = Date.UTC(2026, 0, 5, 15, 0, 0)) {
    this.r = seededRandom(seed);
    this.clock = start;
  }

  get random() {
    return this.r;
  }

  event<K extends CatalogueEventType>(
    streamId: string,
    type: K,
    data: CatalogueEventMap[K],
    corporateId: string | null,
  ) {
    this.clock += 1000;
    const event: NewEvent = {
      id: this.r.uuid(),
      type,
      data,
      corporateId,
      actorId: 'seed',
      occurredAt: new Date(this.clock),
    };
    const last = this.requests.at(-1);
    if (last && last.streamId === streamId) (last.events as NewEvent[]).push(event);
    else this.requests.push({ streamId, expectedVersion: 'any', events: [event] });
  }

  media(corporateId: string, nombre: string, contentType: string, body: string | Buffer): string {
    const id = `media-${this.r.id8()}`;
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    this.event(
      streams.media(corporateId, id),
      'MediaStored',
      { id, contentType, nombre, bytesBase64: bytes.toString('base64') },
      corporateId,
    );
    return id;
  }

  private readonly videos = new Map<string, { video: string; poster: string }>();

  /**
   * The demo video and its poster (issue 20): a few seconds of an animated architectural
   * rendering, H.264 MP4, made once by scripts/demo-video.mjs (h264-mp4-encoder, in process,
   * nothing downloaded) and committed under seed/assets; stored once per corporate.
   */
  demoVideo(corporateId: string): { video: string; poster: string } {
    let ids = this.videos.get(corporateId);
    if (!ids) {
      ids = {
        video: this.media(
          corporateId,
          'Recorrido virtual',
          'video/mp4',
          demoAsset('recorrido.mp4'),
        ),
        poster: this.media(
          corporateId,
          'Recorrido virtual (portada)',
          'image/png',
          demoAsset('recorrido-poster.png'),
        ),
      };
      this.videos.set(corporateId, ids);
    }
    return ids;
  }
}

function schemesFor(clusterIds: string[], r: SeededRandom): PaymentScheme[] {
  const schemes: PaymentScheme[] = [
    seedScheme(r, 'Contado', {
      descuento: 0.08,
      enganche: 1,
      diferido: 0,
      mensualidades: 0,
      meses: 0,
      escrituracion: 0,
      contraEntrega: 0,
    }),
    seedScheme(r, '30/70', {
      descuento: 0.03,
      enganche: 0.2,
      diferido: 0,
      mensualidades: 0.1,
      meses: 12,
      escrituracion: 0,
      contraEntrega: 0.7,
    }),
    seedScheme(r, 'Financiamiento a entrega', {
      descuento: 0,
      enganche: 0.1,
      diferido: 0.05,
      mensualidades: 0.25,
      escrituracion: 0.02,
      contraEntrega: 0.58,
    }),
  ];
  // The second cluster has its own variant of the 30/70 scheme, which overrides the default there.
  const special = clusterIds[1];
  if (special) {
    schemes.push(
      seedScheme(
        r,
        '30/70',
        {
          descuento: 0.05,
          enganche: 0.15,
          diferido: 0.05,
          mensualidades: 0.1,
          meses: 24,
          escrituracion: 0,
          contraEntrega: 0.7,
        },
        special,
      ),
    );
  }
  return schemes;
}

function addDevelopment(b: DemoBuilder, corporateId: string, plan: DevelopmentPlan, unitScale = 1) {
  const r = b.random;
  const devId = `dev-${r.id8()}`;
  const cover = b.media(
    corporateId,
    `${plan.nombre} portada`,
    'image/svg+xml',
    buildingSvg(plan.nombre, plan.hue, 0),
  );
  const logo = b.media(
    corporateId,
    `${plan.nombre} logo`,
    'image/svg+xml',
    logoSvg(plan.nombreCorto.slice(0, 2).toUpperCase(), plan.hue),
  );
  const scenes = ['Fachada', 'Lobby', 'Amenidades', 'Vista aérea', 'Interior muestra', 'Atardecer'];
  const gallery = scenes.map((titulo, i) => ({
    titulo,
    imagenRef: {
      idMedia: b.media(
        corporateId,
        `${plan.nombre} ${titulo}`,
        'image/svg+xml',
        buildingSvg(`${plan.nombre} · ${titulo}`, plan.hue + i * 9, i + 1),
      ),
    },
  }));
  const demoVideo = b.demoVideo(corporateId);
  const videos = [
    {
      titulo: 'Recorrido virtual',
      imagenRef: { idMedia: demoVideo.poster },
      videoRef: { idMedia: demoVideo.video },
    },
  ];
  const documentos = [
    {
      id: `doc-${r.id8()}`,
      titulo: 'Brochure',
      idMedia: b.media(
        corporateId,
        `${plan.nombre} brochure`,
        'application/pdf',
        simplePdf([
          plan.nombre,
          `${plan.direccion}, ${plan.ciudad}`,
          `Amenidades: ${plan.amenidades.join(', ')}`,
          `Entrega: ${plan.fechaEntrega}`,
        ]),
      ),
    },
    {
      id: `doc-${r.id8()}`,
      titulo: 'Lista de precios',
      idMedia: b.media(
        corporateId,
        `${plan.nombre} lista de precios`,
        'application/pdf',
        simplePdf([
          `${plan.nombre} - Lista de precios`,
          ...plan.prototypes.map(
            (p) => `${p.nombre}: desde $${p.precio.toLocaleString('en-US')} MXN`,
          ),
        ]),
      ),
    },
  ];

  const clusters: Cluster[] = plan.clusters.map((c) => ({
    id: `clu-${r.id8()}`,
    idDesarrollo: devId,
    nombre: c.nombre,
    niveles: c.niveles,
    unidadesPorNivel: Math.max(1, Math.round(c.unidadesPorNivel * unitScale)),
    ...(c.etapa ? { etapa: c.etapa } : {}),
    ...(c.calles ? { calles: c.calles } : {}),
  }));
  const clusterIds = clusters.map((c) => c.id);

  const prototypes: Prototype[] = plan.prototypes.map((p, i) => ({
    id: `pro-${r.id8()}`,
    idDesarrollo: devId,
    nombre: p.nombre,
    activo: true,
    clusters: clusterIds,
    precio: p.precio,
    metrajes: {
      areaTotal: p.area,
      areaInterior: Math.round(p.area * 0.86),
      areaBalcon: Math.round(p.area * 0.08),
      terraza: i === plan.prototypes.length - 1 ? 40 : 0,
    },
    caracteristicas: {
      recamaras: p.recamaras,
      banios: p.banios,
      baniosMedios: p.baniosMedios,
      cajones: p.cajones,
    },
    imagen: b.media(
      corporateId,
      `${p.nombre} planta`,
      'image/svg+xml',
      floorPlanSvg(`${plan.nombre} · ${p.nombre}`, p.recamaras, plan.hue),
    ),
  }));

  const development: Development = {
    id: devId,
    slug: plan.slug,
    idCorporativo: corporateId,
    nombre: plan.nombre,
    nombreCorto: plan.nombreCorto,
    ubicacion: {
      direccion: plan.direccion,
      ciudad: plan.ciudad,
      estado: plan.estado,
      coordenadas: { _latitude: plan.lat, _longitude: plan.lng },
    },
    orden: plan.orden,
    enApp: true,
    enWeb: true,
    divisa: plan.divisa,
    imagenPortada: cover,
    imagenLogo: logo,
    categorias: plan.categorias,
    tagsBusqueda: plan.tags,
    tagsEtapaEntrega: plan.etapas,
    presentacion: {
      titulo: plan.nombre,
      descripcion: `${plan.nombre} es un desarrollo en ${plan.ciudad} con ${plan.amenidades.length} amenidades: ${plan.amenidades.join(', ')}.`,
    },
    amenidades: plan.amenidades,
    opcionales: [
      { id: `opc-${r.id8()}`, nombre: 'Bodega', precio: 180_000 },
      { id: `opc-${r.id8()}`, nombre: 'Cajón de estacionamiento adicional', precio: 350_000 },
      {
        id: `opc-${r.id8()}`,
        nombre: 'Paquete de acabados premium',
        precio: 420_000,
        idCluster: clusterIds[0]!,
      },
    ],
    galeria: { items: gallery },
    galeriaVideos: { items: videos },
    documentos,
    esquemasPago: schemesFor(clusterIds, r),
    fechaEntrega: plan.fechaEntrega,
    configVistaNivel: { mostrarColorIndependienteFachada: true },
  };

  b.event(
    streams.development(corporateId, devId),
    'DevelopmentPublished',
    { development },
    corporateId,
  );
  for (const cluster of clusters)
    b.event(streams.cluster(corporateId, cluster.id), 'ClusterAdded', { cluster }, corporateId);
  for (const prototype of prototypes)
    b.event(
      streams.prototype(corporateId, prototype.id),
      'PrototypeAdded',
      { prototype },
      corporateId,
    );

  let unitCount = 0;
  clusters.forEach((cluster, ci) => {
    for (let nivel = 1; nivel <= cluster.niveles; nivel++) {
      for (let posicion = 1; posicion <= cluster.unidadesPorNivel; posicion++) {
        // Towers put their penthouse prototype on the top floor; the rest rotate by position.
        const hasPenthouse = plan.prototypes.length > 4;
        const penthouse = hasPenthouse ? plan.prototypes.length - 1 : -1;
        const pi =
          hasPenthouse && nivel === cluster.niveles
            ? plan.prototypes.length - 1
            : (posicion + ci + nivel) % (plan.prototypes.length - (hasPenthouse ? 1 : 0));
        const proto = prototypes[pi]!;
        const planProto = plan.prototypes[pi]!;
        const levelFactor = 1 + (nivel - 1) * 0.012;
        // Demo prices stay within MXN 2.5 to 18 million.
        const precio = Math.min(
          18_000_000,
          Math.round((planProto.precio * levelFactor) / 1000) * 1000,
        );
        const status = pickStatus(r);
        const code =
          plan.clusters.length > 1
            ? cluster.nombre
                .replace(/^(Torre|Etapa|Edificio) /, '')
                .slice(0, 1)
                .toUpperCase()
            : '';
        const unit: Unit = {
          id: `uni-${r.id8()}`,
          idDesarrollo: devId,
          idCluster: cluster.id,
          idPrototipo: proto.id,
          nombre: `${code}${nivel}${String(posicion).padStart(2, '0')}`,
          nivel,
          posicion,
          status,
          categoria: plan.categoriaUnidad ?? 'Departamento',
          // Spec §4: a unit without its own price takes its prototype's when clusters load. The
          // first floor carries no premium and a tower's penthouses (top floor only) are sold at
          // their prototype's price, so those units have no price of their own (0) and show
          // their prototype's — the brochure's "desde" (the price list above) is each
          // prototype's lowest unit price; other floors keep their own, with the floor's premium.
          precio: nivel === 1 || pi === penthouse ? 0 : precio,
          precioRenta: plan.tags.includes('tag-renta') ? Math.round(precio * 0.0055) : null,
          divisa: plan.divisa,
          caracteristicas: {
            recamaras: planProto.recamaras,
            banios: planProto.banios,
            baniosMedios: planProto.baniosMedios,
            baniosTotales: planProto.banios + planProto.baniosMedios * 0.5,
            cajones: planProto.cajones,
          },
          metrajes: { ...proto.metrajes },
        };
        b.event(streams.unit(corporateId, unit.id), 'UnitListed', { unit }, corporateId);
        unitCount++;
      }
    }
  });
  return { devId, unitCount, clusters, prototypes };
}

function corporate(
  b: DemoBuilder,
  input: {
    slug: string;
    nombre: string;
    multiIdioma: boolean;
    divisa: Currency[];
    hue: number;
    colores: Corporate['colores'];
    statusColors: StatusColors;
    showrooms: { nombre: string; lat: number; lng: number }[];
    /** The legal name and address printed on quotations (issue 19). */
    razonSocial: string;
    domicilio: string;
  },
) {
  const r = b.random;
  const id = `corp-${r.id8()}`;
  const logo = b.media(
    id,
    `${input.nombre} logo`,
    'image/svg+xml',
    logoSvg(
      input.nombre
        .split(' ')
        .map((w) => w[0])
        .join('')
        .slice(0, 2),
      input.hue,
    ),
  );
  const prefix = input.slug.split('-')[0]!.slice(0, 3);
  const corp: Corporate = {
    id,
    slug: input.slug,
    nombre: input.nombre,
    multiIdioma: input.multiIdioma,
    // The corporate's own words in English (issue 19), shown when the interface is in English.
    etiquetas: { en: DEMO_ENGLISH_LABELS },
    coloresStatus: input.statusColors,
    colores: input.colores,
    mediosContacto,
    roles: demoRoles(prefix),
    imagen: { imagenLogo: logo },
    divisa: input.divisa,
    zonaHoraria: 'America/Mexico_City',
    inmobiliarias: DEMO_AGENCIES.map((label) => ({ label })),
    configFiltros: { ocultarPrecioUnidadesNoDisponibles: true },
    configCotizacion: { exportadorCotizaciones: { ocultarNombrePrototipoCsv: false } },
    etiquetasClientes: { es: 'Mis clientes', en: 'My clients' },
    plantillaMensaje: {
      prospecto:
        'Hola {nombre}, soy {asesor} de {corporativo}. Te comparto la información de {desarrollo}.',
    },
    // The chat assistant on, answered by the built-in inventory assistant (issue 18).
    mostrarChat: true,
    asistenteChat: 'inventario',
    // An adviser's hold of a unit ("apartado") lasts this long unless a manager extends it.
    horasApartado: 48,
    razonSocial: input.razonSocial,
    domicilio: input.domicilio,
  };
  const config: CorporateConfig = {
    showrooms: input.showrooms.map((s) => ({
      id: `sr-${r.id8()}`,
      nombre: s.nombre,
      activo: true,
      coordenadas: { _latitude: s.lat, _longitude: s.lng, _accuracy: 30 },
    })),
    statusLeads: leadStatuses,
    tagsBusqueda: [
      { id: 'tag-centro', nombre: 'Céntrico', idCategoria: 'cat-departamentos' },
      { id: 'tag-vista', nombre: 'Vista panorámica', idCategoria: 'cat-departamentos' },
      { id: 'tag-roof', nombre: 'Roof garden', idCategoria: 'cat-departamentos' },
      { id: 'tag-jardin', nombre: 'Jardín privado', idCategoria: 'cat-casas' },
      { id: 'tag-familia', nombre: 'Ideal para familias', idCategoria: 'cat-casas' },
      { id: 'tag-mar', nombre: 'Vista al mar', idCategoria: 'cat-playa' },
      { id: 'tag-renta', nombre: 'Para renta vacacional', idCategoria: 'cat-playa' },
    ],
    categoriasBusqueda: [
      { id: 'cat-departamentos', nombre: 'Departamentos' },
      { id: 'cat-casas', nombre: 'Casas' },
      { id: 'cat-playa', nombre: 'Playa' },
      { id: 'cat-preventa', nombre: 'Preventa' },
    ],
  };
  b.event(streams.corporate(id), 'CorporateRegistered', { corporate: corp, config }, id);
  return { id, prefix };
}

export interface DemoSeed {
  requests: AppendRequest[];
  summary: { corporates: number; developments: number; units: number; users: number };
}

/** Builds every event of the demo tenant. `hash` turns the demo password into its stored hash. */
export async function buildDemoSeed(
  hash: (password: string) => Promise<string>,
): Promise<DemoSeed> {
  const b = new DemoBuilder();
  const horizonte = corporate(b, {
    slug: 'grupo-horizonte',
    nombre: 'Grupo Horizonte',
    multiIdioma: true,
    divisa: [MXN, USD],
    hue: 205,
    colores: {
      colorFondoPrincipal: '#f4f7fb',
      colorFondoBarraLateral: '#0f2a44',
      colorTextoBarraLateral: '#ffffff',
      colorFondoBarraSuperior: '#ffffff',
      colorFondoModal: '#ffffff',
      colorBotonPrimario: '#0b6bcb',
      colorTextoBotonPrimario: '#ffffff',
      colorTextoPrimario: '#14202e',
      colorResaltado: '#f5a524',
      colorEnlace: '#0b6bcb',
    },
    statusColors: specStatusColors(),
    showrooms: [
      { nombre: 'Showroom Alameda', lat: 19.4349, lng: -99.1442 },
      { nombre: 'Showroom Los Olivos', lat: 20.6601, lng: -100.3921 },
    ],
    razonSocial: 'Grupo Horizonte Desarrollos, S.A. de C.V.',
    domicilio: 'Av. Paseo de la Reforma 250, piso 12, Col. Juárez, 06600 Ciudad de México, CDMX',
  });
  const pacifico = corporate(b, {
    slug: 'desarrollos-pacifico',
    nombre: 'Desarrollos Pacífico',
    multiIdioma: false,
    divisa: [MXN],
    hue: 175,
    colores: {
      colorFondoPrincipal: '#f3faf8',
      colorFondoBarraLateral: '#0c4a45',
      colorTextoBarraLateral: '#ffffff',
      colorFondoBarraSuperior: '#ffffff',
      colorFondoModal: '#ffffff',
      colorBotonPrimario: '#0f8a7e',
      colorTextoBotonPrimario: '#ffffff',
      colorTextoPrimario: '#102522',
      colorResaltado: '#ff7a59',
      colorEnlace: '#0f8a7e',
    },
    statusColors: specStatusColors({ Disponible: '#12a383' }),
    showrooms: [{ nombre: 'Showroom Playa Azul', lat: 20.6531, lng: -105.2249 }],
    razonSocial: 'Desarrollos Pacífico del Mar, S.A.P.I. de C.V.',
    domicilio: 'Blvd. Francisco Medina Ascencio 2500, Zona Hotelera, 48333 Puerto Vallarta, Jal.',
  });

  let units = 0;
  for (const [corp, plans] of [
    [horizonte, horizontePlans],
    [pacifico, pacificoPlans],
  ] as const) {
    const featured: string[] = [];
    for (const plan of plans) {
      const added = addDevelopment(b, corp.id, plan);
      units += added.unitCount;
      if (plan.destacado) featured.push(added.devId);
    }
    // Issue 20: the featured-developments document (`destacados.items`, in order) replaces the
    // per-development flag; and the corporate's tutorials.
    b.event(
      streams.corporate(corp.id),
      'CorporateSettingsChanged',
      { changes: { destacados: { items: featured }, tutoriales: demoTutorials() } },
      corp.id,
    );
  }

  const passwordHash = await hash(DEMO_PASSWORD);
  const people: {
    email: string;
    nombre: string;
    apellidos: string;
    grants: { corp: string; role: string; aprobado: boolean }[];
    favorito?: string;
    tipo?: string;
    esAdmin?: boolean;
    rolesAsignacion?: Record<string, string[]>;
    /** The adviser's work phone, printed on their quotations (issue 19). */
    telefono?: string;
  }[] = [
    {
      email: 'admin@vitrina.demo',
      nombre: 'Ana',
      apellidos: 'Robles',
      esAdmin: true,
      favorito: horizonte.id,
      grants: [
        { corp: horizonte.id, role: `${horizonte.prefix}-admin`, aprobado: true },
        { corp: pacifico.id, role: `${pacifico.prefix}-admin`, aprobado: true },
      ],
    },
    {
      email: 'gerente@vitrina.demo',
      nombre: 'Gerardo',
      apellidos: 'Méndez',
      grants: [{ corp: horizonte.id, role: `${horizonte.prefix}-gerente`, aprobado: true }],
      // Without activarAdminUsuarios a manager gives only these (spec §6), and never the host
      // administrator's role, which is above theirs (core/permissions.ts roleExceeds).
      rolesAsignacion: {
        [horizonte.id]: DEMO_MANAGER_ASSIGNS.map((r) => `${horizonte.prefix}-${r}`),
      },
    },
    {
      email: 'asesor@vitrina.demo',
      nombre: 'Sofía',
      apellidos: 'Navarro',
      telefono: '+52 55 4120 3387',
      grants: [{ corp: horizonte.id, role: `${horizonte.prefix}-asesor`, aprobado: true }],
    },
    {
      email: 'asesor2@vitrina.demo',
      nombre: 'Diego',
      apellidos: 'Ibarra',
      grants: [{ corp: horizonte.id, role: `${horizonte.prefix}-asesor`, aprobado: true }],
    },
    {
      email: 'hostess@vitrina.demo',
      nombre: 'Lucía',
      apellidos: 'Ferrer',
      grants: [{ corp: horizonte.id, role: `${horizonte.prefix}-hostes`, aprobado: true }],
    },
    {
      email: 'broker@vitrina.demo',
      nombre: 'Bruno',
      apellidos: 'Salas',
      tipo: 'Broker',
      grants: [
        { corp: horizonte.id, role: `${horizonte.prefix}-broker`, aprobado: true },
        { corp: pacifico.id, role: `${pacifico.prefix}-broker`, aprobado: false },
      ],
    },
    {
      email: 'asesor.pacifico@vitrina.demo',
      nombre: 'Marina',
      apellidos: 'Quiroz',
      grants: [{ corp: pacifico.id, role: `${pacifico.prefix}-asesor`, aprobado: true }],
    },
  ];
  for (const p of people) {
    const id = `usr-${b.random.id8()}`;
    const user: User = {
      id,
      email: p.email,
      nombre: p.nombre,
      apellidos: p.apellidos,
      corporativos: [],
      corporativosRegistro: [],
      corporativoFavorito: p.favorito ?? null,
      desarrollosFavoritos: {},
      roles: {},
      fechaAlta: Math.floor(Date.UTC(2026, 0, 5) / 1000),
      sesionUltima: null,
      esAdmin: p.esAdmin ?? false,
      perfil: p.tipo === 'Broker' ? 1 : 2,
      tipo: p.tipo ?? 'Asesor',
      aprobarRegistro: p.tipo !== 'Broker',
      info: { estatus: 'activo' },
      ...(p.rolesAsignacion ? { rolesAsignacion: p.rolesAsignacion } : {}),
      ...(p.telefono ? { telefono: p.telefono } : {}),
    };
    b.event(streams.user(id), 'UserRegistered', { user, passwordHash }, null);
    for (const g of p.grants) {
      b.event(
        streams.user(id),
        'MembershipGranted',
        { idUsuario: id, idCorporativo: g.corp, idRol: g.role, aprobado: g.aprobado },
        g.corp,
      );
    }
  }

  return {
    requests: b.requests,
    summary: {
      corporates: 2,
      developments: horizontePlans.length + pacificoPlans.length,
      units,
      users: people.length,
    },
  };
}

export const demoPlans = { horizontePlans, pacificoPlans, addDevelopment };
