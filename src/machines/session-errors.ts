/**
 * How the session reads a failed call: what the sign-in form shows, and whether the server
 * answered at all. Shared by the session machine (session.machine.ts) and the light sign-in
 * page's flow (ui/lib/sign-in-flow.ts), which runs without XState.
 */

export interface SessionError {
  errorCode: string | null;
  message: string;
}

export function toSessionError(error: unknown): SessionError {
  if (error && typeof error === 'object') {
    const e = error as { errorCode?: unknown; message?: unknown };
    return {
      errorCode: typeof e.errorCode === 'string' ? e.errorCode : null,
      message: typeof e.message === 'string' ? e.message : '',
    };
  }
  return { errorCode: null, message: typeof error === 'string' ? error : '' };
}

/**
 * A request that never got an answer: the network failed, or the page is unloading and the
 * browser aborted it (the API client reports these as status 0, or an AbortError). Not knowing
 * the user is not the same as the user not existing: such a failure must never log the user
 * out, because logging out revokes the session on the server.
 */
export function isUnanswered(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { status?: unknown; name?: unknown };
  return e.status === 0 || e.name === 'AbortError';
}
