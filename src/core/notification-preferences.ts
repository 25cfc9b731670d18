/**
 * A user's notification preferences (issue 15 point 6, beyond the spec): per kind of
 * notification, whether it shows in the app (the bell's list and count) and whether it is
 * pushed to the user's browsers; and the language push messages are written in: the user's
 * interface language as the app last told the server (`idioma`), else the language of the user's
 * profile, else es.
 *
 * The preferences are events on the user's own stream (`notification-preferences:<userId>`, no
 * corporate: they are the user's, in every corporate). A kind nobody chose is on in both places.
 *
 * What the preferences change, and what they do not:
 * - Every notification is still sent and recorded for every recipient (the log says what
 *   happened); the preferences decide only where it shows.
 * - In-app off: the kind's notifications leave the user's list, unread count and read map, and
 *   "mark all read" leaves them as they are; turning it back on shows them again, read or not.
 * - Push off: no push is queued for the kind, and one already queued is not sent.
 */
import { accept, reject, type Decider } from './decider';
import {
  NOTIFICATION_KINDS,
  isNotificationKind,
  type NotificationKind,
  type NotificationLang,
} from './notifications';

export interface KindPreference {
  /** Shown in the app (the bell). */
  app: boolean;
  /** Pushed to the user's subscribed browsers. */
  push: boolean;
}

export const DEFAULT_KIND_PREFERENCE: KindPreference = { app: true, push: true };
export const DEFAULT_NOTIFICATION_LANG: NotificationLang = 'es';

export interface NotificationPreferences {
  /** The language chosen for notifications, or null (never chosen: the caller's fallback). */
  idioma: NotificationLang | null;
  /** Only the kinds the user changed; an absent kind is {@link DEFAULT_KIND_PREFERENCE}. */
  tipos: Partial<Record<NotificationKind, KindPreference>>;
}

export const initialNotificationPreferences: NotificationPreferences = {
  idioma: null,
  tipos: {},
};

/** The user's choice for one kind (both on when never chosen). */
export function preferenceFor(
  prefs: NotificationPreferences,
  kind: NotificationKind,
): KindPreference {
  return prefs.tipos[kind] ?? DEFAULT_KIND_PREFERENCE;
}

/**
 * Every kind with its value and the language in effect (`fallback` when never chosen: the
 * profile's language, else es): what the preferences screen shows.
 */
export function allPreferences(
  prefs: NotificationPreferences,
  fallback: NotificationLang = DEFAULT_NOTIFICATION_LANG,
): {
  idioma: NotificationLang;
  tipos: Record<NotificationKind, KindPreference>;
} {
  const tipos = Object.fromEntries(
    NOTIFICATION_KINDS.map((k) => [k, { ...preferenceFor(prefs, k) }] as const),
  ) as Record<NotificationKind, KindPreference>;
  return { idioma: prefs.idioma ?? fallback, tipos };
}

export const isNotificationLang = (value: unknown): value is NotificationLang =>
  value === 'es' || value === 'en';

export type NotificationPreferencesEvent =
  /** The kinds whose choice changed, each with its whole new value. */
  | {
      type: 'NotificationPreferencesChanged';
      data: { idUsuario: string; tipos: Partial<Record<NotificationKind, KindPreference>> };
    }
  | { type: 'NotificationLanguageChosen'; data: { idUsuario: string; idioma: NotificationLang } };

export const NOTIFICATION_PREFERENCE_EVENT_TYPES = [
  'NotificationPreferencesChanged',
  'NotificationLanguageChosen',
] as const;

/**
 * The user changes some kinds (a part of a kind's value: the rest stays) and/or the language.
 * Kinds and language arrive as the client sent them; the decider checks them.
 */
export type NotificationPreferencesCommand = {
  type: 'UpdateNotificationPreferences';
  idUsuario: string;
  tipos?: Record<string, Partial<KindPreference>>;
  idioma?: string;
};

export type NotificationPreferencesError = {
  code: 'PREFERENCES_INVALID';
  /** `tipos.<kind>` for an unknown kind, `idioma` for an unknown language. */
  campos: string[];
};

export const notificationPreferencesDecider: Decider<
  NotificationPreferencesCommand,
  NotificationPreferences,
  NotificationPreferencesEvent,
  NotificationPreferencesError
> = {
  initialState: initialNotificationPreferences,
  decide(command, state) {
    switch (command.type) {
      case 'UpdateNotificationPreferences': {
        const campos: string[] = [];
        const requested = Object.entries(command.tipos ?? {});
        for (const [kind, value] of requested) {
          const valid =
            isNotificationKind(kind) &&
            (value.app === undefined || typeof value.app === 'boolean') &&
            (value.push === undefined || typeof value.push === 'boolean');
          if (!valid) campos.push(`tipos.${kind}`);
        }
        if (command.idioma !== undefined && !isNotificationLang(command.idioma))
          campos.push('idioma');
        if (campos.length > 0) return reject({ code: 'PREFERENCES_INVALID', campos });
        const changed: Partial<Record<NotificationKind, KindPreference>> = {};
        for (const [kind, value] of requested) {
          const k = kind as NotificationKind;
          const current = preferenceFor(state, k);
          const next = { app: value.app ?? current.app, push: value.push ?? current.push };
          if (next.app !== current.app || next.push !== current.push) changed[k] = next;
        }
        const events: NotificationPreferencesEvent[] = [];
        if (Object.keys(changed).length > 0)
          events.push({
            type: 'NotificationPreferencesChanged',
            data: { idUsuario: command.idUsuario, tipos: changed },
          });
        if (command.idioma !== undefined && command.idioma !== state.idioma)
          events.push({
            type: 'NotificationLanguageChosen',
            data: { idUsuario: command.idUsuario, idioma: command.idioma as NotificationLang },
          });
        return accept(...events);
      }
      default: {
        const unhandled: never = command.type;
        throw new Error(`unknown command ${String(unhandled)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'NotificationPreferencesChanged':
        return { ...state, tipos: { ...state.tipos, ...event.data.tipos } };
      case 'NotificationLanguageChosen':
        return { ...state, idioma: event.data.idioma };
      default:
        return state;
    }
  },
};
