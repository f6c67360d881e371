import type { TestClock } from '../../../domain/test-clocks/test-clock.ts';
import { ITEM_EXISTS, ITEM_IS_NEW, itemOf } from '../items.ts';
import { keys } from '../keys.ts';

/** The TestClock item: one per group (PK = GROUP#<g>, SK = TEST_CLOCK), listed on GSI2 (TEST_CLOCKS). */
export const testClockEntity = {
  name: 'TestClock',
  key: keys.testClock,
  toItem: (clock: TestClock) => itemOf('TestClock', { ...keys.testClock(clock.agentGroupId), ...keys.testClockIndex(clock.agentGroupId) }, clock),
  fromItem: (item: Record<string, unknown>): TestClock => {
    const { id, agentGroupId, createdAt, setTo, setAt, status, version } = item as unknown as TestClock;
    return { id, agentGroupId, createdAt, setTo, setAt, status, version };
  },
  conditions: {
    /** One clock per group: a second create is refused. */
    isNew: ITEM_IS_NEW,
    /** Moved or removed only as read (`:id`, `:v` the version): a racing advance or delete cancels the other. */
    sameClockAt: 'id = :id AND version = :v',
    /** The group record the clock's id is written on must exist: a missing group is an error, not a race. */
    groupExists: ITEM_EXISTS,
  },
} as const;
