import { createTestClock } from '../../domain/test-clocks/manage-test-clocks.ts';
import { createTestClockRoute } from '../contracts/test-clocks.ts';
import { endpoint } from '../http/endpoint.ts';
import { testClockDeps, testClockJson } from './test-clock-json.ts';

export const handler = endpoint(createTestClockRoute, async ({ principal, body, services }) => ({
  status: 201,
  body: testClockJson(await createTestClock(testClockDeps(services), principal, body?.agentGroupId), services),
}));
