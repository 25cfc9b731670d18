/**
 * The link between a Firebase account and a Vitrina user (issue 22): one stream per Firebase uid.
 *
 * Under the `firebase` sign-in provider the server finds the Vitrina user of a verified ID token
 * by its stored uid once linked, else by the token's verified e-mail; the first sign-in records
 * the link (`FirebaseAccountLinked`), so a later change of the Firebase e-mail keeps the person
 * on the same Vitrina user. A uid is linked to one user for good: a second user for the same uid
 * is refused (the e-mail now names somebody else; the operator unlinks by hand).
 */
import { accept, reject, type Decider, type Decision } from './decider';

export interface FirebaseLinkState {
  /** The Vitrina user the uid is linked to (null: not linked yet). */
  idUsuario: string | null;
}

export type FirebaseLinkEvent = {
  type: 'FirebaseAccountLinked';
  data: { uid: string; idUsuario: string; email: string | null };
};

export const FIREBASE_LINK_EVENT_TYPES: readonly FirebaseLinkEvent['type'][] = [
  'FirebaseAccountLinked',
];

export type FirebaseLinkCommand = {
  type: 'LinkFirebaseAccount';
  uid: string;
  idUsuario: string;
  email: string | null;
};

export type FirebaseLinkError = { code: 'FIREBASE_UID_LINKED'; idUsuario: string };

export function decideFirebaseLink(
  command: FirebaseLinkCommand,
  state: FirebaseLinkState,
): Decision<FirebaseLinkEvent, FirebaseLinkError> {
  if (state.idUsuario === command.idUsuario) return accept();
  if (state.idUsuario !== null)
    return reject({ code: 'FIREBASE_UID_LINKED', idUsuario: state.idUsuario });
  return accept({
    type: 'FirebaseAccountLinked',
    data: { uid: command.uid, idUsuario: command.idUsuario, email: command.email },
  });
}

export function evolveFirebaseLink(
  state: FirebaseLinkState,
  event: FirebaseLinkEvent,
): FirebaseLinkState {
  return event.type === 'FirebaseAccountLinked' ? { idUsuario: event.data.idUsuario } : state;
}

export const firebaseLinkDecider: Decider<
  FirebaseLinkCommand,
  FirebaseLinkState,
  FirebaseLinkEvent,
  FirebaseLinkError
> = {
  initialState: { idUsuario: null },
  decide: decideFirebaseLink,
  evolve: evolveFirebaseLink,
};

/**
 * Which Vitrina user a verified Firebase identity is, given the stored link and the account with
 * its e-mail: the link wins; else the e-mail, only when Firebase says it is verified (an
 * unverified address proves nothing: anyone may sign up with somebody else's e-mail).
 */
export function resolveFirebaseUser(input: {
  linkedUserId: string | null;
  emailUserId: string | null;
  emailVerified: boolean;
}): { idUsuario: string; link: boolean } | null {
  if (input.linkedUserId) return { idUsuario: input.linkedUserId, link: false };
  if (input.emailUserId && input.emailVerified) return { idUsuario: input.emailUserId, link: true };
  return null;
}
