/**
 * A user's own writes (profile, last session, favourite corporate and developments), each one
 * command on the user's stream through the command handler and the core's User decider.
 */
import type { User } from '../../core/types';
import { userDecider, type UserCommand, type UserError } from '../../core/user';
import { streams } from '../catalogue/events';
import { findUser } from '../http/context';
import { ApiError, badRequest, forbidden, notFound } from '../http/errors';
import { handleCommand, type CommandEnv } from '../store/command-handler';

export function userErrorToApi(error: UserError): ApiError {
  switch (error.code) {
    case 'USER_NOT_FOUND':
      return notFound();
    case 'USER_EXISTS':
      return new ApiError(409, 'CONFLICT', 'conflict');
    case 'USER_INVALID':
      return badRequest(error.campos.map((path) => ({ path, code: 'invalid' })));
    case 'CORPORATE_NOT_MEMBER':
      return forbidden('forbidden_corporate');
    case 'REGISTRATION_EXISTS':
      return new ApiError(409, 'REGISTRATION_EXISTS', 'registration_exists');
    case 'REGISTRATION_NOT_PENDING':
      return new ApiError(409, 'REGISTRATION_NOT_PENDING', 'registration_not_pending');
    case 'USER_INACTIVE':
      return new ApiError(409, 'USER_INACTIVE', 'user_inactive');
    default: {
      const unhandled: never = error;
      throw new Error(`unknown user error ${(unhandled as { code: string }).code}`);
    }
  }
}

/**
 * Runs the user's commands on their stream (all or nothing) and answers the user as the read
 * model now shows them. `corporateId` stamps events that belong to one corporate.
 */
export async function runUserCommands(
  env: CommandEnv & { db: Parameters<typeof findUser>[0] },
  userId: string,
  commands: readonly UserCommand[],
  corporateId: string | null = null,
): Promise<User> {
  await handleCommand(
    env,
    { actorId: userId, corporateId },
    {
      decider: userDecider,
      streamId: streams.user(userId),
      command: () => commands,
      reject: userErrorToApi,
    },
  );
  const user = await findUser(env.db, userId);
  if (!user) throw notFound();
  return user;
}
