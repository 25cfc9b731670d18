import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, inject } from 'vitest';
import type { CrmOptions } from '../../../src/server/crm/connections';
import type { PushOptions } from '../../../src/server/notifications/push';
import type { BackgroundWorkOptions } from '../../../src/server/store/background-work';
import { openRuntime, seedDemoIfEmpty, type Runtime } from '../../../src/server/runtime';
import { adminQuery, withDatabase } from './pg-admin';

export interface Backend {
  name: 'pglite' | 'postgres';
  /** Opens a fresh, migrated store (its own database); `dispose` drops it. */
  open(options?: {
    clock?: () => Date;
    push?: PushOptions;
    /** CRM sync options (tests: http on loopback for the fakes, short timeouts). */
    crm?: CrmOptions;
    background?: BackgroundWorkOptions;
    /** Start with the demo tenant (a copy of the run's seeded template). */
    seeded?: boolean;
  }): Promise<Runtime & { databaseUrl?: string; dispose(): Promise<void> }>;
}

type Template = 'migrated' | 'seeded';

/** The run's PGlite templates (support/global-setup.ts), read once per test file. */
const pgliteDumps = new Map<Template, Blob>();
function pgliteTemplate(which: Template): Blob {
  let dump = pgliteDumps.get(which);
  if (!dump) {
    dump = new Blob([readFileSync(inject('pgliteTemplates')[which])]);
    pgliteDumps.set(which, dump);
  }
  return dump;
}

const pgAdminUrl = process.env.VITRINA_TEST_PG;
const ci = process.env.CI === 'true' || process.env.CI === '1';

if (!pgAdminUrl) {
  const text =
    'VITRINA_TEST_PG is not set: the PostgreSQL backend tests are SKIPPED (npm test sets it when PostgreSQL runs).';
  if (ci) throw new Error(`${text} In CI they are required.`);
  console.warn(`\n!!! ${text}\n`);
}

export const pgliteBackend: Backend = {
  name: 'pglite',
  open: async ({ seeded = false, ...options } = {}) => {
    const runtime = await openRuntime({
      dataDir: 'memory://',
      snapshot: pgliteTemplate(seeded ? 'seeded' : 'migrated'),
      ...options,
    });
    return { ...runtime, dispose: () => runtime.close() };
  },
};

export const postgresBackend: Backend = {
  name: 'postgres',
  open: async ({ seeded = false, ...options } = {}) => {
    const name = `vitrina_test_${randomBytes(6).toString('hex')}`;
    const template = inject('postgresTemplates')?.[seeded ? 'seeded' : 'migrated'];
    await adminQuery(
      pgAdminUrl!,
      `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`,
    );
    const databaseUrl = withDatabase(pgAdminUrl!, name);
    const runtime = await openRuntime({ databaseUrl, poolSize: 12, ...options });
    return {
      ...runtime,
      databaseUrl,
      dispose: async () => {
        await runtime.close();
        await adminQuery(pgAdminUrl!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  },
};

export const backends: Backend[] = [pgliteBackend, postgresBackend];

/** Runs the same suite on PGlite and on PostgreSQL (skipped, visibly, where PostgreSQL is absent). */
export function describeBackends(title: string, suite: (backend: Backend) => void) {
  for (const backend of backends) {
    const skip = backend.name === 'postgres' && !pgAdminUrl;
    describe.skipIf(skip)(`${title} [${backend.name}]`, () => suite(backend));
  }
}

/** A store with the demo tenant, for API tests. */
export async function openSeeded(
  backend: Backend,
  options?: {
    clock?: () => Date;
    push?: PushOptions;
    crm?: CrmOptions;
    background?: BackgroundWorkOptions;
  },
) {
  const runtime = await backend.open({ ...options, seeded: true });
  await seedDemoIfEmpty(runtime.deps.store);
  return runtime;
}
