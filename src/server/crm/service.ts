/**
 * Opens the deployment's CRM service: the key (crypto.ts), the http rules (https only; http on
 * loopback with `VITRINA_CRM_ALLOW_HTTP_LOOPBACK=1` or on the e2e server, `VITRINA_TEST_CLOCK=1`,
 * whose tests run the CRM fakes on loopback), the call timeout (`VITRINA_CRM_TIMEOUT_MS`,
 * default 15 s), the public base URL of the OAuth redirect and the sync's retry policy.
 */
import type { Queryable } from '../store/db';
import { withPolicy } from '../store/work-support';
import { DEFAULT_CRM_RETRY, type CrmOptions, type CrmService } from './connections';
import { openCrmKey } from './crypto';

export async function openCrm(
  db: Queryable,
  options: CrmOptions & { dataDir?: string; publicBaseUrl: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<CrmService> {
  const key =
    options.key ??
    (await openCrmKey(db, { envKey: env.VITRINA_CRM_KEY, dataDir: options.dataDir }));
  const timeout = Number(env.VITRINA_CRM_TIMEOUT_MS);
  return {
    key,
    http: {
      allowHttpLoopback:
        options.allowHttpLoopback ??
        (env.VITRINA_CRM_ALLOW_HTTP_LOOPBACK === '1' || env.VITRINA_TEST_CLOCK === '1'),
      timeoutMs: options.timeoutMs ?? (timeout > 0 ? timeout : 15_000),
    },
    publicBaseUrl: options.publicBaseUrl,
    retry: withPolicy(DEFAULT_CRM_RETRY, options.retry),
  };
}
