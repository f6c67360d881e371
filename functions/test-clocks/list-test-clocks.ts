import { listTestClocks } from '../../domain/test-clocks/manage-test-clocks.ts';
import { listTestClocksRoute } from '../contracts/test-clocks.ts';
import { endpoint } from '../http/endpoint.ts';
import { testClockDeps, testClockJson } from './test-clock-json.ts';

export const handler = endpoint(listTestClocksRoute, async ({ principal, services }) => ({
  status: 200,
  body: { data: (await listTestClocks(testClockDeps(services), principal)).map((tc) => testClockJson(tc, services)) },
}));
