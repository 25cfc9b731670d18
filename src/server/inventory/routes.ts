/**
 * Inventory administration (spec §7): a unit's status and price changes and CSV imports, all as
 * events, so each unit keeps its history. Writes need the role permission
 * `administrarInventario`; the history is for every member.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { administersInventory } from '../../core/permissions';
import { effectiveStatusColors } from '../../core/status';
import { visibleUnitHistory } from '../../core/visibility';
import { UNIT_PRICE_MAX } from '../../core/unit';
import { loadDevelopmentById } from '../catalogue/queries';
import { unitWriteAsSeen } from '../catalogue/unit-views';
import { requireMember, type Ctx, type Env } from '../http/context';
import { ApiError, forbidden, jsonBody, lang, notFound, parse } from '../http/errors';
import { message } from '../http/messages';
import {
  changeUnit,
  corporateUnitStatuses,
  extendHold,
  holdUnit,
  importInventory,
  releaseHold,
  storedPriceSeen,
} from './commands';
import { findUnitDoc, unitHistory } from './queries';

export type { ImportError } from './csv-import';

const id = z.string().min(1).max(64);
const status = z.string().trim().min(1).max(40);
const price = z.number().finite().min(0).max(UNIT_PRICE_MAX);
/** A change carries what the administrator saw: a change made from a stale screen is a 409. */
const statusBody = z.strictObject({ status, statusAnterior: status.nullable() });
const priceBody = z.strictObject({ precio: price, precioAnterior: price });
/** A hold names the lead and what the adviser saw (a unit that changed meanwhile is a 409). */
const holdBody = z.strictObject({ idLead: id, statusAnterior: status.nullable() });
/** An extension: the hold ends this many hours from now (up to 30 days). */
const extendBody = z.strictObject({ horas: z.number().finite().positive().max(720) });

const member = (c: Ctx) => requireMember(c, { id: parse(id, c.req.param('c')) });

async function requireInventoryAdmin(c: Ctx) {
  const membership = await requireMember(c, { id: parse(id, c.req.param('c')) });
  if (!administersInventory(membership.role)) throw forbidden();
  return membership;
}

const unitId = (c: Ctx) => parse(id, c.req.param('u'));
const env = (c: Ctx) => c.get('deps');
const actor = (corporateId: string, userId: string) => ({ corporateId, actorId: userId });

export const inventoryRoutes = new Hono<Env>()
  /** `PUT …/unidades/:u/status` `{ status, statusAnterior }` → the unit; 409 `{ unidad }` when stale. */
  .put('/corporativos/:c/unidades/:u/status', async (c) => {
    const { corporate, user, role } = await requireInventoryAdmin(c);
    const body = parse(statusBody, await jsonBody(c));
    return c.json(
      await unitWriteAsSeen(env(c).db, corporate, role, () =>
        changeUnit(env(c), actor(corporate.id, user.id), corporate, unitId(c), {
          type: 'ChangeUnitStatus',
          to: body.status,
          seen: body.statusAnterior,
          validStatuses: corporateUnitStatuses(corporate),
        }),
      ),
    );
  })
  /** `PUT …/unidades/:u/precio` `{ precio, precioAnterior }` → the unit; 409 `{ unidad }` when stale. */
  .put('/corporativos/:c/unidades/:u/precio', async (c) => {
    const { corporate, user, role } = await requireInventoryAdmin(c);
    const body = parse(priceBody, await jsonBody(c));
    const seen = await storedPriceSeen(env(c).db, corporate.id, unitId(c), body.precioAnterior);
    return c.json(
      await unitWriteAsSeen(env(c).db, corporate, role, () =>
        changeUnit(env(c), actor(corporate.id, user.id), corporate, unitId(c), {
          type: 'ChangeUnitPrice',
          to: body.precio,
          seen,
        }),
      ),
    );
  })
  /**
   * `POST …/unidades/:u/apartado` `{ idLead, statusAnterior }` → the unit, 'Apartado' for the
   * corporate's hold time; 409 `UNIT_NOT_AVAILABLE` when it is not 'Disponible', 403 for a lead
   * out of the caller's scope.
   */
  .post('/corporativos/:c/unidades/:u/apartado', async (c) => {
    const m = await member(c);
    const body = parse(holdBody, await jsonBody(c));
    return c.json(
      await unitWriteAsSeen(env(c).db, m.corporate, m.role, () =>
        holdUnit(env(c), m, unitId(c), body),
      ),
    );
  })
  /** `PUT …/unidades/:u/apartado` `{ horas }` → the unit, its hold ending `horas` from now (managers). */
  .put('/corporativos/:c/unidades/:u/apartado', async (c) => {
    const m = await member(c);
    const body = parse(extendBody, await jsonBody(c));
    return c.json(
      await unitWriteAsSeen(env(c).db, m.corporate, m.role, () =>
        extendHold(env(c), m, unitId(c), body.horas),
      ),
    );
  })
  /** `DELETE …/unidades/:u/apartado` → the unit, released (its holder or a manager); again: no-op. */
  .delete('/corporativos/:c/unidades/:u/apartado', async (c) => {
    const m = await member(c);
    return c.json(
      await unitWriteAsSeen(env(c).db, m.corporate, m.role, () =>
        releaseHold(env(c), m, unitId(c)),
      ),
    );
  })
  /**
   * `GET …/unidades/:u/historial` → the unit's status and price changes, newest first; its price
   * lines only to those who may see its price (core/visibility.ts `visibleUnitHistory`).
   */
  .get('/corporativos/:c/unidades/:u/historial', async (c) => {
    const { corporate, role } = await requireMember(c, { id: parse(id, c.req.param('c')) });
    const deps = c.get('deps');
    const unit = await findUnitDoc(deps.db, corporate.id, unitId(c));
    if (!unit) throw notFound();
    const system = message('system_actor', lang(c));
    const development = await loadDevelopmentById(deps.db, corporate.id, unit.idDesarrollo);
    const lines = await unitHistory(deps.store, deps.db, corporate.id, unit.id, system);
    return c.json(
      visibleUnitHistory(lines, unit, effectiveStatusColors(corporate, development), role),
    );
  })
  /** `POST …/desarrollos/:d/importar` (text/csv) → `{ filas, eventos }`; 400 IMPORT_INVALID per line. */
  .post('/corporativos/:c/desarrollos/:d/importar', async (c) => {
    const { corporate, user } = await requireInventoryAdmin(c);
    const deps = c.get('deps');
    const development = await loadDevelopmentById(
      deps.db,
      corporate.id,
      parse(id, c.req.param('d')),
    );
    if (!development) throw new ApiError(404, 'DEVELOPMENT_NOT_FOUND', 'development_not_found');
    const text = await c.req.text();
    const result = await importInventory(
      env(c),
      actor(corporate.id, user.id),
      corporate,
      development,
      text,
      lang(c),
    );
    return c.json(result);
  });
