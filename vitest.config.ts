import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'tests/unit/**/*.test.{ts,tsx}',
            'tests/property/**/*.test.ts',
            'src/**/*.test.ts',
          ],
          environment: 'node',
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          // Each test's store is a copy of a migrated (or seeded) one made once per run.
          globalSetup: ['tests/integration/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file opens its own databases; two cores, so keep it to two at a time.
          maxWorkers: 2,
          // Unit and property tests run first, then these.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
