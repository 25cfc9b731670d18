/**
 * The inventory's writes, each one command through the command handler: a unit's status or price
 * changes (deciding on what the administrator saw, so of two changes made from the same screen
 * one wins and the other answers 409 with the unit as it is), and a CSV import written whole.
 */
import {
  mayExtendHold,
  mayHoldUnit,
  mayReleaseHold,
  type Membership,
} from '../../core/permissions';
import type { Corporate, Development } from '../../core/types';
import {
  holdEndsAt,
  holdHoursOf,
  unitDecider,
  validUnitStatuses,
  type UnitCommand,
  type UnitError,
} from '../../core/unit';
import { streams } from '../catalogue/events';
import { findUnitDoc } from './queries';
import { findUnitPriced, loadClusters, loadPrototypes, loadUnits } from '../catalogue/queries';
import { ApiError, badRequest, forbidden, notFound } from '../http/errors';
import type { Lang } from '../http/messages';
import { runCommand, type CommandActor, type CommandEnv } from '../store/command-handler';
import type { Queryable } from '../store/db';
import { hasOwnPrice } from '../../core/filters';
import { planImport } from './csv-import';

export function unitErrorToApi(error: UnitError): ApiError {
  switch (error.code) {
    case 'UNIT_NOT_FOUND':
      return notFound();
    case 'UNIT_EXISTS':
      return new ApiError(409, 'CONFLICT', 'conflict');
    case 'UNIT_STALE':
      return new ApiError(409, 'CONFLICT', 'conflict', {}, { unidad: error.current });
    case 'UNIT_STATUS_INVALID':
      return badRequest([{ path: 'status', code: 'invalid_value' }]);
    case 'UNIT_PRICE_INVALID':
      return badRequest([{ path: 'precio', code: 'invalid_value' }]);
    case 'UNIT_NOT_AVAILABLE':
      return new ApiError(
        409,
        'UNIT_NOT_AVAILABLE',
        'unit_not_available',
        { status: error.current.status ?? '—' },
        { unidad: error.current },
      );
    case 'UNIT_NOT_HELD':
      return new ApiError(409, 'UNIT_NOT_HELD', 'unit_not_held');
    case 'UNIT_HOLD_INVALID':
      return new ApiError(400, 'VALIDATION', 'unit_hold_invalid');
    default: {
      const unhandled: never = error;
      throw new Error(`unknown unit error ${(unhandled as { code: string }).code}`);
    }
  }
}

/**
 * The stored price an editor who saw `seen` saw. A unit without its own price shows its
 * prototype's (spec §4, catalogue/queries.ts `findUnitPriced`); the unit decider compares with
 * the stored price (0), so seeing the prototype's price on such a unit is seeing 0.
 */
export async function storedPriceSeen(
  db: Queryable,
  corporateId: string,
  unitId: string,
  seen: number,
): Promise<number> {
  const stored = await findUnitDoc(db, corporateId, unitId);
  if (!stored || hasOwnPrice(stored)) return seen;
  const priced = await findUnitPriced(db, corporateId, unitId);
  return priced?.precio === seen ? stored.precio : seen;
}

/** Runs one unit command on the unit's stream; answers the unit as the read model now shows it. */
export async function changeUnit(
  env: CommandEnv,
  actor: CommandActor,
  corporate: Corporate,
  unitId: string,
  command: UnitCommand,
) {
  await runCommand(env, actor, async (scope) => {
    const loaded = await scope.load(unitDecider, streams.unit(corporate.id, unitId));
    const events = scope.decide(unitDecider, loaded.state, command, unitErrorToApi);
    await scope.emit(loaded.streamId, events);
  });
  const unit = await findUnitPriced(env.store.db, corporate.id, unitId);
  if (!unit) throw notFound();
  return unit;
}

/**
 * Holds a unit for one of the caller's leads for the corporate's hold time (`horasApartado`).
 * The lead must be one the caller may see (a 'Propios' adviser: their own); the unit must be
 * 'Disponible' and show what the caller saw. Nothing is written on any refusal.
 */
export async function holdUnit(
  env: CommandEnv,
  m: Membership,
  unitId: string,
  body: { idLead: string; statusAnterior: string | null },
) {
  const { corporate, user } = m;
  await runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const { rows } = await scope.query<{ id_vendedor: string | null }>(
      'SELECT id_vendedor FROM rm_leads WHERE corporate_id = $1 AND id = $2 AND NOT eliminado',
      [corporate.id, body.idLead],
    );
    const lead = rows[0];
    if (!lead) throw new ApiError(404, 'LEAD_NOT_FOUND', 'lead_not_found');
    if (!mayHoldUnit(m, { idCorporativo: corporate.id, idVendedor: lead.id_vendedor }))
      throw forbidden();
    const loaded = await scope.load(unitDecider, streams.unit(corporate.id, unitId));
    const hastaEn = holdEndsAt(scope.now, holdHoursOf(corporate));
    const events = scope.decide(
      unitDecider,
      loaded.state,
      {
        type: 'HoldUnit',
        idLead: body.idLead,
        idVendedor: user.id,
        now: scope.now,
        hastaEn,
        seen: body.statusAnterior,
      },
      unitErrorToApi,
    );
    await scope.emit(loaded.streamId, events);
  });
  return unitOrNotFound(env, corporate.id, unitId);
}

/** Extends a unit's hold to `horas` hours from now (managers). */
export async function extendHold(env: CommandEnv, m: Membership, unitId: string, horas: number) {
  const { corporate, user } = m;
  if (!mayExtendHold(m.role)) throw forbidden();
  await runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const loaded = await scope.load(unitDecider, streams.unit(corporate.id, unitId));
    if (!loaded.state.unit) throw notFound('unit_not_found');
    const events = scope.decide(
      unitDecider,
      loaded.state,
      { type: 'ExtendHold', now: scope.now, hastaEn: holdEndsAt(scope.now, horas) },
      unitErrorToApi,
    );
    await scope.emit(loaded.streamId, events);
  });
  return unitOrNotFound(env, corporate.id, unitId);
}

/** Releases a unit's hold by hand (its holder or a manager); no hold is a no-op. */
export async function releaseHold(env: CommandEnv, m: Membership, unitId: string) {
  const { corporate, user } = m;
  await runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const loaded = await scope.load(unitDecider, streams.unit(corporate.id, unitId));
    if (!loaded.state.unit) throw notFound('unit_not_found');
    const hold = loaded.state.hold;
    if (hold && !mayReleaseHold(m, hold)) throw forbidden();
    const events = scope.decide(
      unitDecider,
      loaded.state,
      { type: 'ReleaseHold', now: scope.now, motivo: 'manual' },
      unitErrorToApi,
    );
    await scope.emit(loaded.streamId, events);
  });
  return unitOrNotFound(env, corporate.id, unitId);
}

async function unitOrNotFound(env: CommandEnv, corporateId: string, unitId: string) {
  // Priced as the clusters read prices it (spec §4): the answer replaces the cached unit.
  const unit = await findUnitPriced(env.store.db, corporateId, unitId);
  if (!unit) throw notFound('unit_not_found');
  return unit;
}

/** The statuses a unit of this corporate may take (its status colours may add some). */
export const corporateUnitStatuses = (corporate: Corporate) =>
  validUnitStatuses(corporate.coloresStatus);

/**
 * Imports a CSV into a development as one command: new prototypes and units are listed, existing
 * units take the file's status and price (decided on each unit's current state, under its lock).
 * A refused row refuses the whole file; nothing is written.
 */
export async function importInventory(
  env: CommandEnv,
  actor: CommandActor,
  corporate: Corporate,
  development: Development,
  text: string,
  L: Lang,
) {
  return runCommand(env, actor, async (scope) => {
    // One after another: a transaction's connection runs one query at a time.
    const clusters = await loadClusters(scope, corporate.id, development.id);
    const prototypes = await loadPrototypes(scope, corporate.id, development.id);
    const units = await loadUnits(scope, corporate.id, development.id);
    const plan = planImport(text, L, { development, clusters, prototypes, units }, () =>
      scope.newId(),
    );
    const validStatuses = validUnitStatuses(corporate.coloresStatus, development.coloresStatus);
    let eventos = 0;
    for (const prototype of plan.prototypes) {
      await scope.emit(streams.prototype(corporate.id, prototype.id), [
        { type: 'PrototypeAdded', data: { prototype } },
      ]);
      eventos += 1;
    }
    await scope.lock([
      ...plan.units.map((u) => streams.unit(corporate.id, u.id)),
      ...plan.changes.map((c) => streams.unit(corporate.id, c.idUnidad)),
    ]);
    for (const unit of plan.units) {
      const loaded = await scope.load(unitDecider, streams.unit(corporate.id, unit.id));
      const events = scope.decide(
        unitDecider,
        loaded.state,
        { type: 'ListUnit', unit, validStatuses },
        unitErrorToApi,
      );
      await scope.emit(loaded.streamId, events, 0);
      eventos += events.length;
    }
    for (const change of plan.changes) {
      const loaded = await scope.load(unitDecider, streams.unit(corporate.id, change.idUnidad));
      const unit = loaded.state.unit;
      if (!unit) continue;
      const events = scope.decide(
        unitDecider,
        loaded.state,
        [
          { type: 'ChangeUnitStatus', to: change.status, seen: unit.status ?? null, validStatuses },
          { type: 'ChangeUnitPrice', to: change.precio, seen: unit.precio },
        ],
        unitErrorToApi,
      );
      await scope.emit(loaded.streamId, events);
      eventos += events.length;
    }
    return { filas: plan.filas, eventos };
  });
}
