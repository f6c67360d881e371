import { defineConfig } from 'vitest/config';

/**
 * One run for unit, integration and e2e tests. The global setup starts DynamoDB Local,
 * fauxqs and `serverless offline` on free ports once; integration and e2e files share
 * them and keep out of each other's way by creating their own tenants.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/invariant-after-file.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
  },
});
