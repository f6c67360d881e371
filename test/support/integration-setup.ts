import type { TestProject } from 'vitest/node';
import { startEmulators, type TestStack } from './global-setup.ts';

/**
 * The integration tier: DynamoDB Local and fauxqs, nothing else. No `serverless offline` (the
 * e2e tier's minute of bundling), no fake IRP or Channex: a file that needs one starts its own.
 * It provides the stack's `env` only; test/support/stack.ts turns a read of what only the e2e
 * stack has (baseUrl, the fakes, the log file) into an error that says to move the file.
 */
export default async function setup(project: TestProject) {
  const emulators = await startEmulators({}, 'pds-test-integration');
  project.provide('stack', { env: emulators.env } as Pick<TestStack, 'env'> as TestStack);
  return () => emulators.stop();
}
