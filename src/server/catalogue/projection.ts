import type { Showroom, UnitHoldView, User } from '../../core/types';
import { evolveUserState, type UserEvent } from '../../core/user';
import type { Queryable } from '../store/db';
import type { Projection, StoredEvent } from '../store/event-store';
import type { CatalogueEventMap, CatalogueEventType } from '../catalogue/events';
import {
  bumpRevision,
  moveFigure,
  recomputeDevelopmentFigures,
  unitFigure,
  unitIdOf,
} from './figures';

type Handler<K extends CatalogueEventType> = (
  tx: Queryable,
  data: CatalogueEventMap[K],
  event: StoredEvent,
) => Promise<void>;

const json = (v: unknown) => JSON.stringify(v);

/** Merges a patch into a jsonb document column. */
async function patchDoc(tx: Queryable, table: string, id: string, patch: unknown) {
  await tx.query(`UPDATE ${table} SET doc = doc || $2::jsonb WHERE id = $1`, [id, json(patch)]);
}

const handlers: { [K in CatalogueEventType]: Handler<K> } = {
  CorporateRegistered: async (tx, { corporate, config }) => {
    await tx.query(
      'INSERT INTO rm_corporates (id, slug, doc) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET slug = EXCLUDED.slug, doc = EXCLUDED.doc',
      [corporate.id, corporate.slug, json({ ...corporate, ...config })],
    );
  },
  CorporateSettingsChanged: async (tx, { changes }, e) => {
    await patchDoc(tx, 'rm_corporates', e.corporateId ?? '', changes);
  },
  ShowroomConfigured: async (tx, { showroom }, e) => {
    const { rows } = await tx.query<{ showrooms: Showroom[] | null }>(
      "SELECT doc->'showrooms' AS showrooms FROM rm_corporates WHERE id = $1",
      [e.corporateId],
    );
    const current = rows[0]?.showrooms ?? [];
    const showrooms = current.some((s) => s.id === showroom.id)
      ? current.map((s) => (s.id === showroom.id ? showroom : s))
      : [...current, showroom];
    await tx.query(
      `UPDATE rm_corporates SET doc = jsonb_set(doc, '{showrooms}', $2::jsonb) WHERE id = $1`,
      [e.corporateId, json(showrooms)],
    );
  },
  DevelopmentPublished: async (tx, { development: d }) => {
    await tx.query(
      'INSERT INTO rm_developments (id, corporate_id, slug, doc) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc, slug = EXCLUDED.slug',
      [d.id, d.idCorporativo, d.slug, json(d)],
    );
  },
  DevelopmentSettingsChanged: async (tx, { idDesarrollo, changes }) => {
    await patchDoc(tx, 'rm_developments', idDesarrollo, changes);
  },
  ClusterAdded: async (tx, { cluster }, e) => {
    await tx.query(
      'INSERT INTO rm_clusters (id, corporate_id, development_id, doc) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc',
      [cluster.id, e.corporateId, cluster.idDesarrollo, json(cluster)],
    );
  },
  PrototypeAdded: async (tx, { prototype }, e) => {
    await tx.query(
      'INSERT INTO rm_prototypes (id, corporate_id, development_id, doc) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc',
      [prototype.id, e.corporateId, prototype.idDesarrollo, json(prototype)],
    );
  },
  UnitListed: async (tx, { unit }, e) => {
    await tx.query(
      'INSERT INTO rm_units (id, corporate_id, development_id, cluster_id, doc) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc',
      [
        unit.id,
        e.corporateId,
        unit.idDesarrollo,
        unit.idCluster,
        json({ ...unit, fechaActualizacion: e.occurredAt }),
      ],
    );
  },
  UnitStatusChanged: async (tx, { idUnidad, to }, e) => {
    // Any status but 'Apartado' ends a hold (core/unit.ts): the hold goes with it.
    await tx.query(
      `UPDATE rm_units SET doc = CASE WHEN $3::boolean THEN doc || $2::jsonb ELSE (doc || $2::jsonb) - 'apartado' END
        WHERE id = $1`,
      [idUnidad, json({ status: to, fechaActualizacion: e.occurredAt }), to === 'Apartado'],
    );
  },
  UnitHeld: async (tx, { idUnidad, idLead, idVendedor, desde, hastaEn, to }, e) => {
    // The names as they are when the unit is held, so every grid shows them without a join.
    const { rows } = await tx.query<{ lead: string | null; vendedor: string | null }>(
      `SELECT (SELECT trim(concat_ws(' ', doc->>'nombre', doc->>'apellidos')) FROM rm_leads WHERE id = $1) AS lead,
              (SELECT trim(concat_ws(' ', doc->>'nombre', doc->>'apellidos')) FROM rm_users WHERE id = $2) AS vendedor`,
      [idLead, idVendedor],
    );
    const names = rows[0];
    const apartado: UnitHoldView = {
      idLead,
      nombreLead: names?.lead ?? '',
      idVendedor,
      nombreVendedor: names?.vendedor ?? '',
      desde,
      hastaEn,
    };
    await patchDoc(tx, 'rm_units', idUnidad, {
      status: to,
      apartado,
      fechaActualizacion: e.occurredAt,
    });
  },
  UnitHoldExtended: async (tx, { idUnidad, hastaEn }) => {
    await tx.query(
      `UPDATE rm_units SET doc = jsonb_set(doc, '{apartado,hastaEn}', to_jsonb($2::text))
        WHERE id = $1 AND doc ? 'apartado'`,
      [idUnidad, hastaEn],
    );
  },
  UnitHoldReleased: async (tx, { idUnidad, to }, e) => {
    await tx.query(`UPDATE rm_units SET doc = (doc || $2::jsonb) - 'apartado' WHERE id = $1`, [
      idUnidad,
      json({ status: to, fechaActualizacion: e.occurredAt }),
    ]);
  },
  UnitPriceChanged: async (tx, { idUnidad, to }, e) => {
    await patchDoc(tx, 'rm_units', idUnidad, { precio: to, fechaActualizacion: e.occurredAt });
  },
  MediaStored: async (tx, { id, contentType, nombre, bytesBase64 }, e) => {
    await tx.query(
      'INSERT INTO rm_media (id, corporate_id, content_type, doc) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc, content_type = EXCLUDED.content_type',
      [id, e.corporateId, contentType, json({ id, nombre, bytesBase64, fechaAlta: e.occurredAt })],
    );
  },
  MediaUploaded: async (tx, { id, contentType, nombre, tipo, bytes, sha256, archivo }, e) => {
    await tx.query(
      'INSERT INTO rm_media (id, corporate_id, content_type, doc) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc, content_type = EXCLUDED.content_type',
      [
        id,
        e.corporateId,
        contentType,
        json({ id, nombre, tipo, bytes, sha256, archivo, fechaAlta: e.occurredAt }),
      ],
    );
  },
  DevelopmentMediaAdded: async (tx, data, e) => {
    const { idDesarrollo, tipo, titulo, idMedia, idPoster, idDocumento } = data;
    const [path, item] =
      tipo === 'documento'
        ? ['{documentos}', { id: idDocumento ?? idMedia, titulo, idMedia }]
        : tipo === 'video'
          ? [
              '{galeriaVideos,items}',
              { titulo, imagenRef: { idMedia: idPoster ?? idMedia }, videoRef: { idMedia } },
            ]
          : ['{galeria,items}', { titulo, imagenRef: { idMedia } }];
    // The list may be absent (a development without videos): start it empty.
    await tx.query(
      `UPDATE rm_developments
          SET doc = jsonb_set(
                CASE WHEN $3 = '{galeriaVideos,items}' AND NOT doc ? 'galeriaVideos'
                     THEN doc || '{"galeriaVideos":{"items":[]}}'::jsonb ELSE doc END,
                $3::text[],
                coalesce(doc #> $3::text[], '[]'::jsonb) || jsonb_build_array($4::jsonb))
        WHERE id = $1 AND corporate_id = $2`,
      [idDesarrollo, e.corporateId, path, json(item)],
    );
  },
  UserRegistered: async (tx, { user, passwordHash }) => {
    await tx.query(
      'INSERT INTO rm_users (id, email, password_hash, doc) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO UPDATE SET email = EXCLUDED.email, password_hash = EXCLUDED.password_hash, doc = EXCLUDED.doc',
      [user.id, user.email.toLowerCase(), passwordHash, json(user)],
    );
  },
  MembershipGranted: async (tx, { idUsuario, idCorporativo, idRol, aprobado }) => {
    const { rows } = await tx.query<{
      doc: {
        corporativos: string[];
        corporativosRegistro: string[];
        roles: Record<string, string>;
      };
    }>('SELECT doc FROM rm_users WHERE id = $1', [idUsuario]);
    const doc = rows[0]?.doc;
    if (!doc) return;
    const add = (list: string[]) =>
      list.includes(idCorporativo) ? list : [...list, idCorporativo];
    await patchDoc(tx, 'rm_users', idUsuario, {
      corporativosRegistro: add(doc.corporativosRegistro ?? []),
      corporativos: aprobado
        ? add(doc.corporativos ?? [])
        : (doc.corporativos ?? []).filter((c) => c !== idCorporativo),
      roles: { ...doc.roles, [idCorporativo]: idRol },
    });
  },
  LastSessionRecorded: async (tx, { sesionUltima, navegador }, e) => {
    await patchDoc(
      tx,
      'rm_users',
      userIdOf(e),
      navegador ? { sesionUltima, navegador } : { sesionUltima },
    );
  },
  UserProfileUpdated: async (tx, { changes }, e) => {
    await patchDoc(tx, 'rm_users', userIdOf(e), changes);
    if (changes.email) {
      await tx.query('UPDATE rm_users SET email = $2 WHERE id = $1', [
        userIdOf(e),
        changes.email.toLowerCase(),
      ]);
    }
  },
  FavouriteCorporateChosen: async (tx, { corporativoFavorito }, e) => {
    await patchDoc(tx, 'rm_users', userIdOf(e), { corporativoFavorito });
  },
  DevelopmentFavourited: async (tx, { idCorporativo, idDesarrollo }, e) => {
    await tx.query(
      `UPDATE rm_users SET doc = jsonb_set(doc, '{desarrollosFavoritos}',
         coalesce(doc->'desarrollosFavoritos', '{}'::jsonb) || jsonb_build_object($2::text,
           coalesce(doc->'desarrollosFavoritos'->$2, '{}'::jsonb) || jsonb_build_object($3::text, true)))
       WHERE id = $1`,
      [userIdOf(e), idCorporativo, idDesarrollo],
    );
  },
  MembershipRevoked: (tx, _data, e) => evolveUserDoc(tx, e),
  RegistrationRequested: (tx, _data, e) => evolveUserDoc(tx, e),
  RegistrationRejected: (tx, _data, e) => evolveUserDoc(tx, e),
  PasswordSet: (tx, _data, e) => evolveUserDoc(tx, e),
  UserDeactivated: (tx, _data, e) => evolveUserDoc(tx, e),
  UserReactivated: (tx, _data, e) => evolveUserDoc(tx, e),
  AssignableRolesSet: (tx, _data, e) => evolveUserDoc(tx, e),
  RegistrationApproverSet: (tx, _data, e) => evolveUserDoc(tx, e),
  DevelopmentUnfavourited: async (tx, { idCorporativo, idDesarrollo }, e) => {
    await tx.query(
      `UPDATE rm_users SET doc = jsonb_set(doc, ARRAY['desarrollosFavoritos', $2::text],
         coalesce(doc->'desarrollosFavoritos'->$2, '{}'::jsonb) - $3::text)
       WHERE id = $1 AND doc->'desarrollosFavoritos' ? $2`,
      [userIdOf(e), idCorporativo, idDesarrollo],
    );
  },
};

/**
 * Folds a people event (issue 16) onto the stored user document with the core's own evolve, so
 * the read model and the decider agree; a new password also replaces the stored hash.
 */
async function evolveUserDoc(tx: Queryable, event: StoredEvent): Promise<void> {
  const id = userIdOf(event);
  const { rows } = await tx.query<{ doc: User }>('SELECT doc FROM rm_users WHERE id = $1', [id]);
  const doc = rows[0]?.doc;
  if (!doc) return;
  const next = evolveUserState({ user: doc }, { type: event.type, data: event.data } as UserEvent);
  await tx.query('UPDATE rm_users SET doc = $2 WHERE id = $1', [id, json(next.user)]);
  if (event.type === 'PasswordSet')
    await tx.query('UPDATE rm_users SET password_hash = $2 WHERE id = $1', [
      id,
      (event.data as { passwordHash: string }).passwordHash,
    ]);
}

function userIdOf(event: StoredEvent): string {
  return event.streamId.slice('user:'.length);
}

export const catalogueProjection: Projection = {
  name: 'catalogue',
  tables: [
    'rm_corporates',
    'rm_users',
    'rm_developments',
    'rm_clusters',
    'rm_prototypes',
    'rm_units',
    'rm_media',
    'rm_catalogue_revisions',
    'rm_development_figures',
  ],
  handles: Object.keys(handlers),
  apply: async (tx, event) => {
    const handler = handlers[event.type as CatalogueEventType] as
      Handler<CatalogueEventType> | undefined;
    if (!handler) return;
    // The development list's counters (catalogue/figures.ts) follow the unit's figure.
    const unitId = unitIdOf(event);
    const before = unitId ? await unitFigure(tx, unitId) : null;
    await handler(tx, event.data as never, event);
    if (unitId) await moveFigure(tx, before, await unitFigure(tx, unitId));
    if (event.type === 'PrototypeAdded') {
      const { prototype } = event.data as CatalogueEventMap['PrototypeAdded'];
      await recomputeDevelopmentFigures(tx, prototype.idDesarrollo);
    }
    await bumpRevision(tx, event);
  },
};
