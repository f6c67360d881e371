import type * as v from 'valibot';
import type { TestClockDeps } from '../../domain/test-clocks/manage-test-clocks.ts';
import { advanceLimitOf, timeOf, type TestClock } from '../../domain/test-clocks/test-clock.ts';
import type { Services } from '../../infra/compose/core.ts';
import type { TestClockSchema } from '../contracts/test-clocks.ts';

export const testClockDeps = (svc: Services): TestClockDeps => ({ testClocks: svc.testClocks, realClock: svc.realClock, ids: svc.ids });

export const testClockJson = (tc: TestClock, svc: Services): v.InferOutput<typeof TestClockSchema> => ({
  id: tc.id,
  agentGroupId: tc.agentGroupId,
  now: timeOf(tc, svc.realClock.now()).toISOString(),
  status: tc.status,
  createdAt: tc.createdAt,
  advanceLimit: advanceLimitOf(tc).toISOString(),
});
