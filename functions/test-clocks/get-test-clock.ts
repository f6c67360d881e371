import { getTestClock } from '../../domain/test-clocks/manage-test-clocks.ts';
import { getTestClockRoute } from '../contracts/test-clocks.ts';
import { endpoint } from '../http/endpoint.ts';
import { testClockDeps, testClockJson } from './test-clock-json.ts';

export const handler = endpoint(getTestClockRoute, async ({ principal, params, services }) => ({
  status: 200,
  body: testClockJson(await getTestClock(testClockDeps(services), principal, params.id), services),
}));
