import type { TestClock } from '../test-clocks/test-clock.ts';

/** Each agent group's sandbox test clock: at most one per group, kept under the group. */
export interface TestClockStore {
  get(agentGroupId: string): Promise<TestClock | undefined>;
  /** Every group's clock: the scheduled jobs sweep each clocked group again at its own time. */
  list(): Promise<TestClock[]>;
  /** False when the group already has a clock. */
  create(clock: TestClock): Promise<boolean>;
  /** Replaces the clock if it is still at `expectedVersion`; false when someone else moved it first. */
  replace(clock: TestClock, expectedVersion: number): Promise<boolean>;
  /** Removes the clock if it is still this one at `expectedVersion`; false when it is not (gone, or moved meanwhile). */
  remove(agentGroupId: string, id: string, expectedVersion: number): Promise<boolean>;
}
