import { areaRouter } from '../http/area-router.ts';
import { handler as fallback } from '../system/fallback.ts';
import { handler as advanceTestClock } from '../test-clocks/advance-test-clock.ts';
import { handler as createTestClock } from '../test-clocks/create-test-clock.ts';
import { handler as deleteTestClock } from '../test-clocks/delete-test-clock.ts';
import { handler as getTestClock } from '../test-clocks/get-test-clock.ts';
import { handler as listTestClocks } from '../test-clocks/list-test-clocks.ts';

/** Sandbox test clocks (off sandbox stages each route answers as an unknown path). */
export const handler = areaRouter([listTestClocks, createTestClock, getTestClock, advanceTestClock, deleteTestClock], fallback);
