/**
 * The entities of the spec (§3), with the spec's Spanish field names: they are the wire format,
 * the document shape in the read models and what the screens show.
 */

import type { CorporateLabels } from './corporate-labels';
import type { DevelopmentMessageTemplate, DevelopmentPage } from './development-settings';
import type { FeaturedDevelopments } from './featured';
import type { BrowserName } from './misc';
import type { Tutorial } from './tutorials';

export type UnitStatus =
  | 'Disponible'
  | 'Apartado'
  | 'Bloqueado'
  | 'Reservado'
  | 'Vendido'
  | 'No Disponible'
  | 'Incompleto'
  | 'Sin Estatus';

export const UNIT_STATUSES: readonly UnitStatus[] = [
  'Disponible',
  'Apartado',
  'Bloqueado',
  'Reservado',
  'Vendido',
  'No Disponible',
  'Incompleto',
  'Sin Estatus',
];

/** Status colour entry (§3): how a corporate (or development) shows and treats one status. */
export interface StatusColorEntry {
  color: { hexColor: string };
  disponibilidad: string;
  esCotizable: boolean;
  esPrecioVisible: boolean;
}

export type StatusColors = Partial<Record<string, StatusColorEntry>>;

export interface Currency {
  codigo: string;
  activo: boolean;
  nombre: string;
  tipoCambio: number;
}

export interface Permissions {
  generarReporteCotizaciones?: boolean;
  activarAdminUsuarios?: boolean;
  adminHostes?: boolean;
  administrarInventario?: boolean;
}

export type LeadScope = 'Todos' | 'Propios';

export interface Role {
  id: string;
  nombre: string;
  permisos: Permissions;
  permisosLeads: { alcanceLeads: LeadScope };
  permisosUsuarios: { crearUsuarios?: boolean; editarUsuarios?: boolean };
  funcionesCotizador?: Record<string, boolean>;
}

export interface GeoPoint {
  _latitude: number;
  _longitude: number;
  _accuracy?: number;
}

export interface Showroom {
  id: string;
  nombre: string;
  activo: boolean;
  coordenadas: GeoPoint;
  idDesarrollo?: string;
}

export interface SchemePart {
  nombre: string;
  /** Fraction of the price after discount, 0..1. */
  porcentaje: number;
}

export interface MonthlyPart extends SchemePart {
  /** Number of monthly instalments; absent means "the whole months until delivery". */
  numeroMensualidades?: number;
}

/** Payment scheme configuration (§3). */
export interface PaymentScheme {
  id: string;
  nombre: string;
  /** Absent: the development's default scheme; present: the cluster-specific variant. */
  idCluster?: string;
  descuento: SchemePart;
  enganche: SchemePart;
  diferido: SchemePart;
  mensualidades: MonthlyPart;
  escrituracion: SchemePart;
  contraEntrega: SchemePart;
}

export interface ColorSettings {
  colorFondoPrincipal?: string;
  colorFondoBarraLateral?: string;
  colorTextoBarraLateral?: string;
  colorFondoBarraSuperior?: string;
  colorFondoModal?: string;
  colorBotonPrimario?: string;
  colorTextoBotonPrimario?: string;
  colorTextoPrimario?: string;
  colorResaltado?: string;
  colorEnlace?: string;
}

export interface Corporate {
  id: string;
  slug: string;
  nombre: string;
  multiIdioma: boolean;
  coloresStatus: StatusColors;
  coloresStatusGeneral?: StatusColors;
  colores: ColorSettings;
  mediosContacto: string[];
  estados?: string[];
  roles: Role[];
  imagen: { imagenLogo?: string };
  divisa: Currency[];
  zonaHoraria: string;
  configFiltros: { ocultarPrecioUnidadesNoDisponibles?: boolean };
  configCotizacion: { exportadorCotizaciones: { ocultarNombrePrototipoCsv?: boolean } };
  etiquetasClientes?: { es?: string; en?: string };
  plantillaMensaje?: { prospecto: string };
  /** The corporate shows the chat assistant (issue 18; with the deployment's switch). */
  mostrarChat?: boolean;
  /** The assistant's first message, per language (absent: the app's default welcome). */
  mensajeBienvenidaChat?: { es?: string; en?: string };
  /** Who answers: the built-in inventory assistant (default) or the deployment's webhook. */
  asistenteChat?: 'inventario' | 'webhook';
  /** How long an adviser's hold ("apartado") of a unit lasts, in hours (48 when absent). */
  horasApartado?: number;
  /** The real-estate agencies a broker picks from when registering (spec §3; OTRO is added last). */
  inmobiliarias?: { label: string }[];
  /** The corporate's own labels per language (core/corporate-labels.ts; issue 19). */
  etiquetas?: CorporateLabels;
  /** The developer's legal name, printed on quotations (issue 19; administrators set it). */
  razonSocial?: string;
  /** The developer's legal address, printed on quotations under the legal name. */
  domicilio?: string;
  /** Featured developments (core/featured.ts; the `destacados` page and the list's block). */
  destacados?: FeaturedDevelopments;
  /** Short guides for users, active or not (core/tutorials.ts; `wsObtenerTutoriales`). */
  tutoriales?: Tutorial[];
}

export interface Development {
  id: string;
  slug: string;
  idCorporativo: string;
  nombre: string;
  nombreCorto: string;
  ubicacion: {
    direccion: string;
    ciudad: string;
    estado: string;
    coordenadas: GeoPoint;
  };
  orden: number;
  enApp: boolean;
  enWeb: boolean;
  divisa: string;
  imagenPortada?: string;
  imagenLogo?: string;
  categorias: string[];
  tagsBusqueda: string[];
  tagsEtapaEntrega: string[];
  presentacion: { titulo: string; descripcion: string };
  amenidades: string[];
  opcionales: Optional[];
  coloresStatus?: StatusColors;
  galeria: { items: MediaItem[] };
  galeriaVideos?: { items: MediaItem[] };
  documentos: DocumentItem[];
  esquemasPago: PaymentScheme[];
  fechaEntrega: string;
  configVistaNivel?: { mostrarColorIndependienteFachada?: boolean };
  // Settings an administrator edits (core/development-settings.ts; issue 20).
  /** The sub-pages shown, in order (absent or empty: all, in the default order). */
  menu?: DevelopmentPage[];
  reedireccionarLandingPage?: boolean;
  landingPage?: string;
  campanias?: string[];
  caracteristicasUnidad?: string[];
  subcategorias?: string[];
  proyecto?: string;
  /** Spec §3 message template (prospecto, developmentId): this development's own. */
  plantillaMensaje?: DevelopmentMessageTemplate;
  idFraccional?: string;
}

export interface MediaItem {
  titulo: string;
  /** The image (for a video: its poster). */
  imagenRef: { idMedia: string };
  /** A video gallery item's video (issue 20); absent on the demo's older still-only items. */
  videoRef?: { idMedia: string };
}

export interface DocumentItem {
  id: string;
  titulo: string;
  idMedia: string;
}

export interface Optional {
  id: string;
  nombre: string;
  /** Price in the development's currency, major units (pesos). */
  precio: number;
  idCluster?: string;
}

export interface Cluster {
  id: string;
  idDesarrollo: string;
  nombre: string;
  niveles: number;
  unidadesPorNivel: number;
  etapa?: string;
  /** A stage of houses (core/site-plan.ts): its streets' names, by the units' `nivel`. */
  calles?: string[];
}

export interface UnitFeatures {
  recamaras: number;
  banios: number;
  baniosMedios: number;
  baniosTotales?: number;
  cajones: number;
}

export interface Areas {
  areaTotal: number;
  areaInterior?: number;
  areaBalcon?: number;
  terraza?: number;
  roofGarden?: number;
}

export interface Unit {
  id: string;
  idDesarrollo: string;
  idCluster: string;
  idPrototipo: string;
  nombre: string;
  nivel: number;
  posicion: number;
  /** One of {@link UnitStatus} or a corporate-specific status (e.g. 'FRACTIONAL'). */
  status?: UnitStatus | (string & {});
  categoria?: string;
  /** List price in the unit's currency, major units (pesos). */
  precio: number;
  precioRenta?: number | string | null;
  divisa?: string;
  caracteristicas: UnitFeatures;
  metrajes: Areas;
  fechaActualizacion?: string;
  /** The unit's hold while an adviser holds it (status 'Apartado'): who, for which lead, until when. */
  apartado?: UnitHoldView;
}

/** A unit's hold as screens show it (ISO times; names as they were when the unit was held). */
export interface UnitHoldView {
  idLead: string;
  nombreLead: string;
  idVendedor: string;
  nombreVendedor: string;
  desde: string;
  hastaEn: string;
}

export interface Prototype {
  id: string;
  idDesarrollo: string;
  nombre: string;
  activo: boolean;
  clusters: string[];
  precio: number;
  metrajes: Areas;
  caracteristicas: UnitFeatures;
  imagen?: string;
}

export interface User {
  id: string;
  email: string;
  nombre: string;
  apellidos: string;
  corporativos: string[];
  corporativosRegistro: string[];
  corporativoFavorito?: string | null;
  desarrollosFavoritos: Record<string, Record<string, true>>;
  roles: Record<string, string>;
  /** A second role per corporate (spec §3); kept as stored, never changed through the API. */
  roles2?: Record<string, string>;
  /** Per corporate, the role ids this user may give others without `activarAdminUsuarios` (spec §6). */
  rolesAsignacion?: Record<string, string[]>;
  fechaAlta: number;
  sesionUltima?: number | null;
  /** The browser of the last session (misc.ts `detectBrowser`); absent before it was kept. */
  navegador?: BrowserName;
  perfil?: number;
  tipo?: string;
  esAdmin: boolean;
  /**
   * The user approves brokers' registrations (spec §1, §6) in the corporates where their role
   * manages users (core/permissions.ts `mayApproveRegistrations`); false for a broker who signs up.
   */
  aprobarRegistro?: boolean;
  /** `estatus`: see {@link UserStatus}. */
  info?: { estatus: string };
  tokens?: Record<string, true>;
  /** The corporate the user last worked in (spec §3). */
  corporativoActual?: string | null;
  /** A contact phone (broker registration). */
  telefono?: string;
  /** A broker's real-estate agency: a label of the corporate's list, or the free text for OTRO. */
  inmobiliaria?: string;
  /** The language of the user's e-mails ('es' or 'en'; es when absent). */
  idioma?: 'es' | 'en';
}

/**
 * `info.estatus`: `activo`; `invitado` (invited, no password set yet: cannot sign in);
 * `inactivo` (deactivated: cannot sign in, sessions ended).
 */
export type UserStatus = 'activo' | 'invitado' | 'inactivo';

export interface SearchTag {
  id: string;
  nombre: string;
  idCategoria?: string;
}

export interface LeadStatus {
  id: string;
  nombre: string;
  color: string;
}
