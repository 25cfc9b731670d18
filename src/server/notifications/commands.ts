/**
 * The notifications' writes through the command handler: a manager's message to members of the
 * corporate, a read mark, "mark all read" (one event) and a user's preferences. Every refusal is
 * an {@link ApiError} in the spec's shape and nothing is written.
 */
import {
  notificationReadsDecider,
  type Notification,
  type NotificationError,
  type NotificationLang,
  type NotificationReadError,
} from '../../core/notifications';
import {
  allPreferences,
  notificationPreferencesDecider,
  type NotificationPreferencesCommand,
  type NotificationPreferencesError,
} from '../../core/notification-preferences';
import type { Membership } from '../../core/permissions';
import { ApiError, badRequest } from '../http/errors';
import { handleCommand, runCommand, type CommandEnv } from '../store/command-handler';
import { NotificationRejected, notify } from './notify';
import { inboxEntry, unreadIds } from './queries';
import { notificationPreferencesStream, notificationReadsStream } from './streams';

export const notificationNotFound = () =>
  new ApiError(404, 'NOTIFICATION_NOT_FOUND', 'notification_not_found');

export function notificationErrorToApi(error: NotificationError): ApiError {
  switch (error.code) {
    case 'NO_RECIPIENTS':
      return new ApiError(422, 'NO_RECIPIENTS', 'notification_no_recipients');
    case 'NOTIFICATION_INVALID':
      return badRequest(error.campos.map((path) => ({ path, code: 'invalid_value' })));
    default: {
      const unhandled: never = error;
      throw new Error(`unknown notification error ${(unhandled as { code: string }).code}`);
    }
  }
}

const readErrorToApi = (error: NotificationReadError): ApiError => {
  switch (error.code) {
    case 'NOTIFICATION_NOT_FOUND':
      return notificationNotFound();
    default: {
      const unhandled: never = error.code;
      throw new Error(`unknown read error ${String(unhandled)}`);
    }
  }
};

/** A manager's message to `userIds` (already resolved and checked to be members). */
export async function sendMessage(
  env: CommandEnv,
  m: Membership,
  message: { titulo: string; mensaje: string; link: string | null; userIds: readonly string[] },
): Promise<Notification> {
  return runCommand(env, { corporateId: m.corporate.id, actorId: m.user.id }, async (scope) => {
    try {
      const sent = await notify(scope, {
        corporateId: m.corporate.id,
        userIds: message.userIds,
        kind: 'mensaje',
        titulo: message.titulo,
        mensaje: message.mensaje,
        link: message.link,
        senderId: m.user.id,
      });
      if (!sent) throw notificationErrorToApi({ code: 'NO_RECIPIENTS' });
      return sent;
    } catch (error) {
      if (error instanceof NotificationRejected) throw notificationErrorToApi(error.error);
      throw error;
    }
  });
}

/** Marks one of the user's notifications read (already read: nothing written). */
export async function markRead(
  env: CommandEnv,
  m: Membership,
  idNotificacion: string,
): Promise<void> {
  const { corporate, user } = m;
  await runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const streamId = notificationReadsStream(corporate.id, user.id);
    await scope.lock([streamId]);
    const entry = await inboxEntry(scope, corporate.id, user.id, idNotificacion);
    const events = scope.decide(
      notificationReadsDecider,
      null,
      {
        type: 'MarkRead',
        idUsuario: user.id,
        idNotificacion,
        esDestinatario: entry !== null,
        leida: entry?.leida ?? false,
      },
      readErrorToApi,
    );
    await scope.emit(streamId, events);
  });
}

/** Marks every unread notification of the user in the corporate read: one event (none if none). */
export async function markAllRead(env: CommandEnv, m: Membership): Promise<number> {
  const { corporate, user } = m;
  return runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const streamId = notificationReadsStream(corporate.id, user.id);
    await scope.lock([streamId]);
    const noLeidas = await unreadIds(scope, corporate.id, user.id);
    const events = scope.decide(
      notificationReadsDecider,
      null,
      { type: 'MarkAllRead', idUsuario: user.id, noLeidas },
      readErrorToApi,
    );
    await scope.emit(streamId, events);
    return noLeidas.length;
  });
}

const preferencesErrorToApi = (error: NotificationPreferencesError): ApiError => {
  switch (error.code) {
    case 'PREFERENCES_INVALID':
      return badRequest(error.campos.map((path) => ({ path, code: 'invalid_value' })));
    default: {
      const unhandled: never = error.code;
      throw new Error(`unknown preferences error ${String(unhandled)}`);
    }
  }
};

/**
 * Changes the user's notification preferences (core/notification-preferences.ts) on their own
 * stream; answers every kind's value and the language as they now are. No change: nothing written.
 */
export async function updatePreferences(
  env: CommandEnv,
  userId: string,
  change: Omit<NotificationPreferencesCommand, 'type' | 'idUsuario'>,
  /** The language shown while none is chosen (the profile's). */
  fallback: NotificationLang,
): Promise<ReturnType<typeof allPreferences>> {
  const { state } = await handleCommand(
    env,
    { actorId: userId, corporateId: null },
    {
      decider: notificationPreferencesDecider,
      streamId: notificationPreferencesStream(userId),
      command: () => ({ type: 'UpdateNotificationPreferences', idUsuario: userId, ...change }),
      reject: preferencesErrorToApi,
    },
  );
  return allPreferences(state, fallback);
}
