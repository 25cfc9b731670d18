/**
 * The corporate aggregate (spec §3 Corporate): a pure decider over one corporate's stream
 * (`corporate:<id>`). A corporate is registered with its document and the configuration read
 * through its own calls (showrooms, lead statuses, search tags and categories); its settings
 * (colours, status colours, roles, currencies, …) change by naming only the fields that
 * change. `id` and `slug` never change: paths and streams are built from them.
 *
 * The events' `data` are the wire format of the corporate streams (projections and seeded logs
 * read them).
 */

import { accept, reject, type Decider, type Decision } from './decider';
import type { Corporate, LeadStatus, SearchTag, Showroom } from './types';

/** Corporate configuration that is read through its own calls rather than the corporate document. */
export interface CorporateConfig {
  showrooms: Showroom[];
  statusLeads: LeadStatus[];
  tagsBusqueda: SearchTag[];
  categoriasBusqueda: SearchTag[];
}

/** The settings a change may name: any field of the corporate but its `id` and `slug`. */
export type CorporateSettings = Partial<Omit<Corporate, 'id' | 'slug'>>;

export type CorporateEvent =
  | { type: 'CorporateRegistered'; data: { corporate: Corporate; config: CorporateConfig } }
  /** `changes`: only the fields whose value changed, each with its new value. */
  | { type: 'CorporateSettingsChanged'; data: { changes: CorporateSettings } }
  /** A showroom added (`nuevo`) or changed: the whole showroom as it is now. */
  | { type: 'ShowroomConfigured'; data: { showroom: Showroom; nuevo: boolean } };

export type CorporateEventType = CorporateEvent['type'];

export const CORPORATE_EVENT_TYPES: readonly CorporateEventType[] = [
  'CorporateRegistered',
  'CorporateSettingsChanged',
  'ShowroomConfigured',
];

/** The corporate document and its configuration; both null before registration. */
export interface CorporateState {
  corporate: Corporate | null;
  config: CorporateConfig | null;
}

export const initialCorporateState: CorporateState = { corporate: null, config: null };

export type CorporateCommand =
  | { type: 'RegisterCorporate'; corporate: Corporate; config: CorporateConfig }
  /** The wanted values of some settings; those equal to the current ones are left out. */
  | { type: 'ChangeCorporateSettings'; changes: CorporateSettings }
  /**
   * Sets a showroom's name, active flag and coordinates (`PUT …/config-corporativo/showroom/
   * {id}`); a showroom of an unknown id is added. The same values again write nothing.
   */
  | { type: 'ConfigureShowroom'; showroom: Showroom };

export type CorporateError =
  | { code: 'CORPORATE_NOT_FOUND' }
  | { code: 'CORPORATE_EXISTS' }
  /** `campos`: fields a change may not name (`id`, `slug`). */
  | { code: 'CORPORATE_SETTINGS_INVALID'; campos: string[] }
  /** `campos`: the showroom's fields that are not valid. */
  | { code: 'SHOWROOM_INVALID'; campos: ShowroomField[] };

export type ShowroomField = 'nombre' | '_latitude' | '_longitude' | '_accuracy';

/** Longest showroom name. */
export const SHOWROOM_NAME_MAX = 120;

/** What is wrong with a showroom's settings, field by field (empty: nothing). */
export function showroomProblems(
  showroom: Pick<Showroom, 'nombre' | 'coordenadas'>,
): ShowroomField[] {
  const out: ShowroomField[] = [];
  const nombre = showroom.nombre.trim();
  if (nombre.length === 0 || nombre.length > SHOWROOM_NAME_MAX) out.push('nombre');
  const { _latitude, _longitude, _accuracy } = showroom.coordenadas;
  if (!Number.isFinite(_latitude) || Math.abs(_latitude) > 90) out.push('_latitude');
  if (!Number.isFinite(_longitude) || Math.abs(_longitude) > 180) out.push('_longitude');
  if (
    _accuracy !== undefined &&
    (!Number.isFinite(_accuracy) || _accuracy < 0 || _accuracy > 100_000)
  )
    out.push('_accuracy');
  return out;
}

export type CorporateDecision = Decision<CorporateEvent, CorporateError>;

const READ_ONLY_FIELDS = ['id', 'slug'] as const;

/** Structural equality of JSON values (key order does not matter; arrays are ordered). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  // Absent and undefined are the same in JSON.
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const key of keys) if (!jsonEqual(ra[key], rb[key])) return false;
  return true;
}

/** What a command produces given the corporate's state: events, or why it cannot happen. */
export function decideCorporate(
  command: CorporateCommand,
  state: CorporateState,
): CorporateDecision {
  switch (command.type) {
    case 'RegisterCorporate':
      if (state.corporate) return reject({ code: 'CORPORATE_EXISTS' });
      return accept({
        type: 'CorporateRegistered',
        data: { corporate: command.corporate, config: command.config },
      });
    case 'ChangeCorporateSettings': {
      const corporate = state.corporate;
      if (!corporate) return reject({ code: 'CORPORATE_NOT_FOUND' });
      const campos = READ_ONLY_FIELDS.filter((f) => Object.hasOwn(command.changes, f));
      if (campos.length > 0) return reject({ code: 'CORPORATE_SETTINGS_INVALID', campos });
      const current = corporate as unknown as Record<string, unknown>;
      const changes: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(command.changes)) {
        if (value !== undefined && !jsonEqual(value, current[key])) changes[key] = value;
      }
      if (Object.keys(changes).length === 0) return accept();
      return accept({
        type: 'CorporateSettingsChanged',
        data: { changes },
      });
    }
    case 'ConfigureShowroom': {
      if (!state.corporate || !state.config) return reject({ code: 'CORPORATE_NOT_FOUND' });
      const campos = showroomProblems(command.showroom);
      if (campos.length > 0) return reject({ code: 'SHOWROOM_INVALID', campos });
      const showroom = { ...command.showroom, nombre: command.showroom.nombre.trim() };
      const current = state.config.showrooms.find((s) => s.id === showroom.id);
      if (current && jsonEqual(current, showroom)) return accept();
      return accept({ type: 'ShowroomConfigured', data: { showroom, nuevo: !current } });
    }
    default: {
      const unhandled: never = command;
      throw new Error(`unknown command ${(unhandled as { type: string }).type}`);
    }
  }
}

/** The corporate after one event (never mutated); settings merge field by field. */
export function evolveCorporate(state: CorporateState, event: CorporateEvent): CorporateState {
  switch (event.type) {
    case 'CorporateRegistered':
      return { corporate: { ...event.data.corporate }, config: { ...event.data.config } };
    case 'CorporateSettingsChanged':
      return state.corporate
        ? { ...state, corporate: { ...state.corporate, ...event.data.changes } }
        : state;
    case 'ShowroomConfigured': {
      if (!state.config) return state;
      const { showroom } = event.data;
      const showrooms = state.config.showrooms.some((s) => s.id === showroom.id)
        ? state.config.showrooms.map((s) => (s.id === showroom.id ? showroom : s))
        : [...state.config.showrooms, showroom];
      return { ...state, config: { ...state.config, showrooms } };
    }
    default: {
      const unhandled: never = event;
      throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
    }
  }
}

/** The corporate aggregate as a {@link Decider}. */
export const corporateDecider: Decider<
  CorporateCommand,
  CorporateState,
  CorporateEvent,
  CorporateError
> = {
  initialState: initialCorporateState,
  decide: decideCorporate,
  evolve: evolveCorporate,
};
