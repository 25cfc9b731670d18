import type { UnitEvent } from '../../core/unit';
import type { UploadKind } from '../../core/media';
import type { DevelopmentSettings } from '../../core/development-settings';
import type { BrowserName } from '../../core/misc';
import type { UserEvent, UserProfileChanges } from '../../core/user';
import type {
  Cluster,
  Corporate,
  Development,
  LeadStatus,
  Prototype,
  SearchTag,
  Showroom,
  Unit,
  User,
} from '../../core/types';

/** The user aggregate's events (core/user.ts) as the catalogue stores them. */
type UserEventData<K extends UserEvent['type']> = Extract<UserEvent, { type: K }>['data'];

/** The unit aggregate's events (core/unit.ts) as the catalogue stores them. */
type UnitEventData<K extends UnitEvent['type']> = Extract<UnitEvent, { type: K }>['data'];

/** Corporate configuration that is read through its own calls rather than the corporate document. */
export interface CorporateConfig {
  showrooms: Showroom[];
  statusLeads: LeadStatus[];
  tagsBusqueda: SearchTag[];
  categoriasBusqueda: SearchTag[];
}

/** The catalogue's and people's facts. Each `data` keeps the spec's field names. */
export interface CatalogueEventMap {
  CorporateRegistered: { corporate: Corporate; config: CorporateConfig };
  CorporateSettingsChanged: { changes: Partial<Omit<Corporate, 'id' | 'slug'>> };
  /** A showroom added or changed (core/corporate.ts ConfigureShowroom; check-ins/commands.ts). */
  ShowroomConfigured: { showroom: Showroom; nuevo: boolean };
  DevelopmentPublished: { development: Development };
  /** An administrator's settings of the development (core/development-settings.ts): the changed fields. */
  DevelopmentSettingsChanged: { idDesarrollo: string; changes: DevelopmentSettings };
  ClusterAdded: { cluster: Cluster };
  PrototypeAdded: { prototype: Prototype };
  UnitListed: { unit: Unit };
  UnitStatusChanged: { idUnidad: string; from: string | null; to: string };
  UnitPriceChanged: { idUnidad: string; from: number; to: number };
  UnitHeld: UnitEventData<'UnitHeld'>;
  UnitHoldExtended: UnitEventData<'UnitHoldExtended'>;
  UnitHoldReleased: UnitEventData<'UnitHoldReleased'>;
  MediaStored: { id: string; contentType: string; nombre: string; bytesBase64: string };
  /**
   * An administrator's upload (issue 20): the bytes are a file in the media directory
   * (catalogue/uploads.ts), named by `archivo`; the type is the one its first bytes show.
   */
  MediaUploaded: {
    id: string;
    contentType: string;
    nombre: string;
    tipo: UploadKind;
    bytes: number;
    sha256: string;
    archivo: string;
  };
  /** An uploaded media put on a development's gallery, video gallery or documents. */
  DevelopmentMediaAdded: {
    idDesarrollo: string;
    tipo: 'imagen' | 'video' | 'documento';
    titulo: string;
    idMedia: string;
    /** A video's poster image. */
    idPoster?: string;
    /** A document's id in `documentos`. */
    idDocumento?: string;
  };
  UserRegistered: { user: User; passwordHash: string | null };
  MembershipGranted: { idUsuario: string; idCorporativo: string; idRol: string; aprobado: boolean };
  LastSessionRecorded: { sesionUltima: number; navegador?: BrowserName };
  UserProfileUpdated: { changes: UserProfileChanges };
  FavouriteCorporateChosen: { corporativoFavorito: string };
  DevelopmentFavourited: { idCorporativo: string; idDesarrollo: string };
  DevelopmentUnfavourited: { idCorporativo: string; idDesarrollo: string };
  // People (issue 16): core/user.ts's events, folded onto the user document by its evolve.
  MembershipRevoked: UserEventData<'MembershipRevoked'>;
  RegistrationRequested: UserEventData<'RegistrationRequested'>;
  RegistrationRejected: UserEventData<'RegistrationRejected'>;
  PasswordSet: UserEventData<'PasswordSet'>;
  UserDeactivated: UserEventData<'UserDeactivated'>;
  UserReactivated: UserEventData<'UserReactivated'>;
  AssignableRolesSet: UserEventData<'AssignableRolesSet'>;
  RegistrationApproverSet: UserEventData<'RegistrationApproverSet'>;
}

export type CatalogueEventType = keyof CatalogueEventMap;

export const streams = {
  corporate: (id: string) => `corporate:${id}`,
  development: (corp: string, id: string) => `development:${corp}:${id}`,
  cluster: (corp: string, id: string) => `cluster:${corp}:${id}`,
  prototype: (corp: string, id: string) => `prototype:${corp}:${id}`,
  unit: (corp: string, id: string) => `unit:${corp}:${id}`,
  media: (corp: string, id: string) => `media:${corp}:${id}`,
  user: (id: string) => `user:${id}`,
};
