/**
 * The Firebase links (issue 22): the `firebase-account:<uid>` streams, their projection
 * (`rm_firebase_links`, migration 018) and the sign-in that resolves a verified identity to a
 * Vitrina user, links it, and opens our own session.
 */
import { randomBytes } from 'node:crypto';
import {
  FIREBASE_LINK_EVENT_TYPES,
  firebaseLinkDecider,
  resolveFirebaseUser,
  type FirebaseLinkError,
  type FirebaseLinkEvent,
} from '../../core/firebase-link';
import type { User } from '../../core/types';
import { maySignIn, userStatus } from '../../core/user';
import { streams } from '../catalogue/events';
import { findUser, type AppDeps } from '../http/context';
import { ApiError } from '../http/errors';
import type { Queryable } from '../store/db';
import { runCommand } from '../store/command-handler';
import type { Projection, StoredEvent } from '../store/event-store';
import { decideUserIn } from '../users/people';
import { hashPassword } from './passwords';
import { endSessions, revokeTokens } from './people-tokens';
import type { FirebaseIdentity } from './firebase';

export const firebaseAccountStream = (uid: string) => `firebase-account:${uid}`;

export const firebaseLinksProjection: Projection = {
  name: 'firebase-links',
  tables: ['rm_firebase_links'],
  handles: FIREBASE_LINK_EVENT_TYPES,
  async apply(tx: Queryable, stored: StoredEvent) {
    const event = { type: stored.type, data: stored.data } as FirebaseLinkEvent;
    if (event.type !== 'FirebaseAccountLinked') return;
    await tx.query(
      `INSERT INTO rm_firebase_links (uid, user_id, email, linked_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (uid) DO UPDATE SET user_id = EXCLUDED.user_id, email = EXCLUDED.email`,
      [event.data.uid, event.data.idUsuario, event.data.email, stored.occurredAt],
    );
  },
};

export const noAccess = () => new ApiError(403, 'FIREBASE_NO_ACCESS', 'firebase_no_access');

function linkError(error: FirebaseLinkError): ApiError {
  // The uid names another user already: this e-mail's owner is somebody else's Firebase account.
  if (error.code === 'FIREBASE_UID_LINKED') return noAccess();
  return new ApiError(409, 'CONFLICT', 'conflict');
}

/**
 * The Vitrina user of a verified Firebase identity, linked on the first sign-in. An unknown
 * account, or an e-mail Firebase has not verified and no stored link, gets 403 'no access' and
 * never an account of its own; a deactivated user 403 `USER_INACTIVE` as with a password.
 *
 * An invited person (`invitado`, no password yet) whose verified e-mail is the invitation's
 * accepts it by signing in: the invitation is used up as the link of `/acceso` would (the
 * built-in password becomes a random one nobody knows: the person signs in through Firebase).
 */
export async function signInWithFirebase(deps: AppDeps, identity: FirebaseIdentity): Promise<User> {
  const { rows: linked } = await deps.db.query<{ user_id: string }>(
    'SELECT user_id FROM rm_firebase_links WHERE uid = $1',
    [identity.uid],
  );
  const { rows: byEmail } = identity.email
    ? await deps.db.query<{ id: string }>('SELECT id FROM rm_users WHERE email = $1', [
        identity.email,
      ])
    : { rows: [] };
  const found = resolveFirebaseUser({
    linkedUserId: linked[0]?.user_id ?? null,
    emailUserId: byEmail[0]?.id ?? null,
    emailVerified: identity.emailVerified,
  });
  if (!found) throw noAccess();
  const user = await findUser(deps.db, found.idUsuario);
  if (!user) throw noAccess();
  const status = userStatus(user);
  if (status === 'inactivo') throw new ApiError(403, 'USER_INACTIVE', 'user_inactive');
  const accepting = status === 'invitado';
  if (!found.link && !accepting) return user;
  // The unusable password of an accepted invitation, hashed before the transaction.
  const passwordHash = accepting ? await hashPassword(randomBytes(32).toString('base64url')) : '';
  return runCommand(deps, { actorId: user.id, corporateId: null }, async (scope) => {
    const linkStream = firebaseAccountStream(identity.uid);
    await scope.lock([linkStream, streams.user(user.id)].sort());
    const loaded = await scope.load(firebaseLinkDecider, linkStream);
    const events = scope.decide(
      firebaseLinkDecider,
      loaded.state,
      [
        {
          type: 'LinkFirebaseAccount',
          uid: identity.uid,
          idUsuario: user.id,
          email: identity.email,
        },
      ],
      linkError,
    );
    await scope.emit(linkStream, events);
    if (!accepting) return user;
    const accepted = await decideUserIn(scope, user.id, [
      { type: 'SetPassword', passwordHash, motivo: 'invitacion' },
    ]);
    // The mailed invitation and recovery links stop working, and so does any earlier session.
    await revokeTokens(scope, { userId: user.id, kind: 'invitacion', now: scope.now });
    await revokeTokens(scope, { userId: user.id, kind: 'recuperacion', now: scope.now });
    await endSessions(scope, user.id, scope.now);
    if (!accepted || !maySignIn(accepted)) throw noAccess();
    return accepted;
  });
}
