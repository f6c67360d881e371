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
  if (!(await deps.testClocks.create(clock)))
    throw new ConflictError('CONFLICT', 'This agent group already has a test clock: advance it, or delete it and create a new one.');
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
export async function advanceTestClock(
  deps: TestClockDeps & { readonly dueWork: DueWork },
  principal: AgentGroupPrincipal,
  id: string,
  to: Date,
): Promise<TestClock> {
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

/**
 * DELETE /v1/test-clocks/{id}: the group is back on real time, only while that leaves nothing
 * of it in the future. A clock that was advanced runs ahead of real time for good (it moves at
 * real speed from where it was set), and the group's bookings, ledger entries, invoices, last
 * billed period and credit hold may be dated at its time: real time would find them in the
 * future, so it is refused (409 CLOCK_AHEAD) and the group keeps its clock (docs/sandbox.md).
 * The delete is conditioned on the clock's version, so an advance racing it wins or loses whole.
 */
export async function deleteTestClock(deps: Pick<TestClockDeps, 'testClocks'>, principal: AgentGroupPrincipal, id: string): Promise<void> {
  for (;;) {
    const clock = await getTestClock(deps, principal, id);
    if (Date.parse(clock.setTo) > Date.parse(clock.setAt)) {
      throw new ConflictError(
        'CONFLICT',
        `The test clock was advanced to ${clock.setTo}, ahead of real time: the group's bookings, invoices and ledger may be dated at the clock's time, and real time would leave them in the future. The group keeps its clock (it runs on at real speed); for a group on real time, ask for a new sandbox group.`,
        { reasonCode: 'CLOCK_AHEAD' },
      );
    }
    if (await deps.testClocks.remove(principal.agentGroupId, id, clock.version)) return;
  }
}
