import { deleteTestClock } from '../../domain/test-clocks/manage-test-clocks.ts';
import { deleteTestClockRoute } from '../contracts/test-clocks.ts';
import { endpoint } from '../http/endpoint.ts';
import { testClockDeps } from './test-clock-json.ts';

export const handler = endpoint(deleteTestClockRoute, async ({ principal, params, services }) => {
  await deleteTestClock(testClockDeps(services), principal, params.id);
  return { status: 204, body: undefined };
});
