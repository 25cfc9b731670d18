/**
 * The corporate's CRM configuration as events (`ConfigureCrm` through the command handler on the
 * `corporate-crm:<corporate>` stream). The client secret is encrypted with the deployment's key
 * before it reaches the decider, so the log never holds it in clear.
 */
import {
  crmConfigDecider,
  type CrmConfig,
  type CrmConfigError,
  type StoredCrmConfig,
} from '../../core/crm';
import type { Membership } from '../../core/permissions';
import { ApiError } from '../http/errors';
import { runCommand, type CommandEnv } from '../store/command-handler';
import type { CrmService } from './connections';
import { encryptSecret } from './crypto';
import { crmConfigStream } from './projection';

/** The 400 of a configuration that lacks a piece: the spec's messages, per field. */
export function crmConfigErrorToApi(error: CrmConfigError): ApiError {
  const first = error.issues[0]!;
  return new ApiError(
    400,
    'CRM_CONFIG_INVALID',
    first.code,
    {},
    { details: error.issues.map((i) => ({ path: i.campo, code: i.code })) },
  );
}

/**
 * Sets the corporate's CRM configuration. `clientSecret`: undefined keeps the stored one, ''
 * clears it, anything else replaces it. Answers the configuration as stored.
 */
export async function configureCrm(
  env: CommandEnv,
  crm: CrmService,
  m: Membership,
  config: CrmConfig,
  clientSecret: string | undefined,
): Promise<StoredCrmConfig | null> {
  const { corporate, user } = m;
  const secret =
    clientSecret === undefined
      ? ({ keep: true } as const)
      : clientSecret === ''
        ? ({ clear: true } as const)
        : { set: encryptSecret(crm.key, clientSecret) };
  return runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const loaded = await scope.load(crmConfigDecider, crmConfigStream(corporate.id));
    const events = scope.decide(
      crmConfigDecider,
      loaded.state,
      { type: 'ConfigureCrm', idCorporativo: corporate.id, config, secret },
      crmConfigErrorToApi,
    );
    await scope.emit(loaded.streamId, events);
    return events.reduce((s, e) => crmConfigDecider.evolve(s, e), loaded.state).config;
  });
}
