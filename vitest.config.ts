import { defineConfig } from 'vitest/config';

/**
 * Three tiers, one run (`npm test`) or one each (`npm run test:unit`, `test:integration`,
 * `test:e2e`); docs/local-development.md, "Test tiers", says which test goes where.
 * - unit: no global setup, no emulator, worker threads sharing modules between files;
 *   reaching the network is an error (test/support/no-network.ts).
 * - integration: DynamoDB Local and fauxqs (test/support/integration-setup.ts).
 * - e2e: the whole offline stack, its fakes and its workers (test/support/global-setup.ts).
 * The stateful tiers share one DynamoDB Local in a run and keep out of each other's way, as
 * their files do, by creating their own tenants; after each of their files the booking/ledger
 * invariant is checked on the groups it created (test/support/invariant-after-file.ts).
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          setupFiles: ['test/support/no-network.ts'],
          pool: 'threads',
          // Files share a worker's loaded modules (half the tier's CPU goes to loading them again
          // otherwise); a unit test restores what it changes (vi.unstubAllEnvs, restoreAllMocks).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/integration-setup.ts'],
          setupFiles: ['test/support/invariant-after-file.ts'],
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/invariant-after-file.ts'],
          pool: 'forks',
        },
      },
    ],
  },
});
