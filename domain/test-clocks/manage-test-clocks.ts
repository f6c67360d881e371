import { ConflictError, NotFoundError } from '../errors.ts';
import type { AgentGroupPrincipal } from '../principal.ts';
import type { Clock } from '../ports/clock.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { TestClockStore } from '../ports/test-clock-store.ts';
import { advanced, clockOf, newTestClock, type TestClock } from './test-clock.ts';

export interface TestClockDeps {
  readonly testClocks: TestClockStore;
  /** The process's real clock: a test clock is set against it, never against another test clock. */
  readonly realClock: Clock;
  readonly ids: IdGenerator;
}

/**
 * The work a jump of the group's clock made due, run at the clock's new time by the same
 * code as the daily run (billing of the periods that closed, credit control).
 */
export type DueWork = (agentGroupId: string, clock: Clock) => Promise<void>;

/**
 * POST /v1/test-clocks: a clock for the caller's group, starting at the real now. Naming a
 * group that is not the caller's is a 404, whether it is another tenant's or none at all.
 */
export async function createTestClock(deps: TestClockDeps, principal: AgentGroupPrincipal, agentGroupId: string | undefined): Promise<TestClock> {
  if (agentGroupId !== undefined && agentGroupId !== principal.agentGroupId) throw new NotFoundError('Agent group');
  const clock = newTestClock(deps.ids.uuid(), principal.agentGroupId, deps.realClock.now());
  if (!(await deps.testClocks.create(clock))) throw new ConflictError('CONFLICT', 'This agent group already has a test clock: advance it, or delete it and create a new one.');
  return clock;
}

export async function getTestClock(deps: Pick<TestClockDeps, 'testClocks'>, principal: AgentGroupPrincipal, id: string): Promise<TestClock> {
  const clock = await deps.testClocks.get(principal.agentGroupId);
  if (!clock || clock.id !== id) throw new NotFoundError('Test clock');
  return clock;
}

/** GET /v1/test-clocks: the caller's clock, if it has one (a group has at most one). */
export async function listTestClocks(deps: Pick<TestClockDeps, 'testClocks'>, principal: AgentGroupPrincipal): Promise<TestClock[]> {
  const clock = await deps.testClocks.get(principal.agentGroupId);
  return clock ? [clock] : [];
}

/**
 * POST /v1/test-clocks/{id}/advance: the clock jumps to `to` (status `advancing`), the due
 * work runs at that time, then the clock is `ready`. Two advances racing are ordered by the
 * clock's version; the loser is judged again against the winner's time. If the due work
 * fails the clock stays `advancing` at its new time and the error is the answer; advancing
 * again runs the work again (it is idempotent: nothing is billed twice).
 */
export async function advanceTestClock(deps: TestClockDeps & { readonly dueWork: DueWork }, principal: AgentGroupPrincipal, id: string, to: Date): Promise<TestClock> {
  for (;;) {
    const current = await getTestClock(deps, principal, id);
    const moved = advanced(current, to, deps.realClock.now());
    if (!(await deps.testClocks.replace(moved, current.version))) continue;
    await deps.dueWork(moved.agentGroupId, clockOf(moved, deps.realClock));
    const ready: TestClock = { ...moved, status: 'ready', version: moved.version + 1 };
    // A later advance that moved the clock meanwhile owns its status.
    if (await deps.testClocks.replace(ready, moved.version)) return ready;
    return getTestClock(deps, principal, id);
  }
}

/** DELETE /v1/test-clocks/{id}: the group is back on real time. */
export async function deleteTestClock(deps: Pick<TestClockDeps, 'testClocks'>, principal: AgentGroupPrincipal, id: string): Promise<void> {
  if (!(await deps.testClocks.remove(principal.agentGroupId, id))) throw new NotFoundError('Test clock');
}
