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
 *
 * Workers: the e2e and integration files four at a time (e2e first, the longest first within
 * each), then the unit files two at a time (`sequence.groupOrder`). An e2e file spends much of its
 * time waiting on the stack (booking windows, callback retries, fault phases) and an integration
 * file on DynamoDB Local, so with two at a time the two cores were busy about 70 % of a run; with
 * four they stay busy throughout (vitest 373 s → 340 s on a fresh clone, quiet machine).
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    // The JSON report carries each test's assertion count (test/support/count-assertions.ts);
    // `npm test` prints the totals from it (scripts/assertion-totals.ts compares two reports).
    reporters: ['default', ['json', { outputFile: '.vitest/report.json' }]],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          sequence: { groupOrder: 1 },
          include: ['test/unit/**/*.test.ts'],
          setupFiles: ['test/support/no-network.ts', 'test/support/count-assertions.ts', 'test/support/fast-check-seed.ts'],
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
          maxWorkers: 4,
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/integration-setup.ts'],
          setupFiles: ['test/support/invariant-after-file.ts', 'test/support/count-assertions.ts', 'test/support/fast-check-seed.ts'],
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          maxWorkers: 4,
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/invariant-after-file.ts', 'test/support/count-assertions.ts', 'test/support/fast-check-seed.ts'],
          pool: 'forks',
        },
      },
    ],
  },
});
