/**
 * What each caller may see of a record (issue 13): the one place every route asks before it
 * answers a unit or another user's record, so no screen-only rule is left for the API to leak.
 *
 * - {@link visibleUnit}: a price whose status hides it (spec §4 "Price visible", the status
 *   colour entry's `esPrecioVisible`) is omitted for everyone but roles that administer the
 *   inventory ({@link administersInventory}), who set it.
 * - {@link userRecordFor}: of another user, only what belongs to the corporates both share.
 */

import { administersInventory } from './permissions';
import { isPriceVisible } from './status';
import type { Role, StatusColors, Unit, User } from './types';

// ---------------------------------------------------------------------------------------------
// Hidden prices

/** The role sees prices their status hides: it administers the inventory (sets the prices). */
export function seesHiddenPrices(role: Role | null | undefined): boolean {
  return administersInventory(role);
}

/** The unit's price may reach this role: its status shows it, or the role sees hidden prices. */
export function mayShowUnitPrice(
  unit: Pick<Unit, 'status'>,
  statusColors: StatusColors,
  role: Role | null | undefined,
): boolean {
  return seesHiddenPrices(role) || isPriceVisible(unit, statusColors);
}

/** A unit as a role may see it: without `precio` and `precioRenta` when its price is hidden. */
export type UnitView = Omit<Unit, 'precio' | 'precioRenta'> &
  Partial<Pick<Unit, 'precio' | 'precioRenta'>>;

/**
 * The unit as `role` may see it (`statusColors`: the development's effective colours): whole
 * when {@link mayShowUnitPrice}, else without its sale and rent prices. `null` (no membership)
 * sees what a visitor sees.
 */
export function visibleUnit(
  unit: Unit,
  statusColors: StatusColors,
  role: Role | null | undefined,
): UnitView {
  if (mayShowUnitPrice(unit, statusColors, role)) return unit;
  const { precio: _p, precioRenta: _r, ...rest } = unit;
  return rest;
}

/** One line of a unit's history: a status or a price change. */
export interface UnitHistoryLine {
  campo: 'precio' | 'status';
}

/**
 * A unit's history as `role` may see it: without its price lines while the unit's price is
 * hidden from the role (the previous prices of a hidden price are hidden with it).
 */
export function visibleUnitHistory<L extends UnitHistoryLine>(
  lines: readonly L[],
  unit: Pick<Unit, 'status'>,
  statusColors: StatusColors,
  role: Role | null | undefined,
): L[] {
  if (mayShowUnitPrice(unit, statusColors, role)) return [...lines];
  return lines.filter((l) => l.campo !== 'precio');
}

// ---------------------------------------------------------------------------------------------
// Other users' records

/** Another user's record as a caller may see it: no platform flags, no push tokens. */
export type OtherUserView = Omit<User, 'esAdmin' | 'tokens'>;

const pick = <T>(map: Readonly<Record<string, T>> | undefined, keys: readonly string[]) => {
  const out: Record<string, T> = {};
  for (const k of keys) if (map && Object.hasOwn(map, k)) out[k] = map[k]!;
  return out;
};

/**
 * The corporates `viewer` and `other` share: the viewer's approved ones where the other is a
 * member or has registered.
 */
export function sharedCorporates(
  viewer: Pick<User, 'corporativos'>,
  other: Pick<User, 'corporativos' | 'corporativosRegistro'>,
): string[] {
  return viewer.corporativos.filter(
    (id) => other.corporativos.includes(id) || other.corporativosRegistro.includes(id),
  );
}

/**
 * What `viewer` may see of `other`'s record: their own in full; of anyone else, who they are
 * and only what belongs to the corporates both share (memberships, roles, roles they may
 * assign, favourite corporate and developments), never push tokens, CRM credentials or
 * platform flags. Fields are listed, not copied: whatever else a record carries stays out.
 */
export function userRecordFor(
  viewer: Pick<User, 'id' | 'corporativos'>,
  other: User,
): User | OtherUserView {
  if (viewer.id === other.id) return other;
  const shared = sharedCorporates(viewer, other);
  const inShared = (id: string) => shared.includes(id);
  const view: OtherUserView = {
    id: other.id,
    email: other.email,
    nombre: other.nombre,
    apellidos: other.apellidos,
    corporativos: other.corporativos.filter(inShared),
    corporativosRegistro: other.corporativosRegistro.filter(inShared),
    corporativoFavorito:
      other.corporativoFavorito != null && inShared(other.corporativoFavorito)
        ? other.corporativoFavorito
        : null,
    desarrollosFavoritos: pick(other.desarrollosFavoritos, shared),
    roles: pick(other.roles, shared),
    fechaAlta: other.fechaAlta,
  };
  if (other.rolesAsignacion !== undefined)
    view.rolesAsignacion = pick(other.rolesAsignacion, shared);
  if (other.sesionUltima !== undefined) view.sesionUltima = other.sesionUltima;
  if (other.navegador !== undefined) view.navegador = other.navegador;
  if (other.perfil !== undefined) view.perfil = other.perfil;
  if (other.tipo !== undefined) view.tipo = other.tipo;
  if (other.aprobarRegistro !== undefined) view.aprobarRegistro = other.aprobarRegistro;
  if (other.info !== undefined) view.info = { estatus: other.info.estatus };
  return view;
}
