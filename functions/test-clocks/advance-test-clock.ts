import { advanceTestClock } from '../../domain/test-clocks/manage-test-clocks.ts';
import { canonicalInstant } from '../../domain/reads/date-window.ts';
import { dueWorkOn } from '../../infra/compose/sandbox.ts';
import { advanceTestClockRoute } from '../contracts/test-clocks.ts';
import { endpoint } from '../http/endpoint.ts';
import { testClockDeps, testClockJson } from './test-clock-json.ts';

export const handler = endpoint(advanceTestClockRoute, async ({ principal, params, body, services }) => ({
  status: 200,
  body: testClockJson(
    await advanceTestClock({ ...testClockDeps(services), dueWork: dueWorkOn(services) }, principal, params.id, new Date(canonicalInstant(body.to, 'to'))),
    services,
  ),
}));
