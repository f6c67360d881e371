import { areaRouter } from '../http/area-router.ts';
import { handler as fallback } from '../system/fallback.ts';
import { handler as advanceTestClock } from '../test-clocks/advance-test-clock.ts';
import { handler as createTestClock } from '../test-clocks/create-test-clock.ts';
import { handler as deleteTestClock } from '../test-clocks/delete-test-clock.ts';
import { handler as getTestClock } from '../test-clocks/get-test-clock.ts';
import { handler as listTestClocks } from '../test-clocks/list-test-clocks.ts';
import { billingAdapters } from '../../infra/compose/adapters/billing.ts';
import { bookingAdapters } from '../../infra/compose/adapters/bookings.ts';
import { mailAdapters } from '../../infra/compose/adapters/mail.ts';
import { paymentAdapters } from '../../infra/compose/adapters/payments.ts';
import { wire } from '../../infra/compose/core.ts';

// The adapters this function uses beyond the core's (infra/compose/core.ts, wire; `npm run check:wiring` holds it to what its code reads).
wire(billingAdapters, bookingAdapters, mailAdapters, paymentAdapters);

/** Sandbox test clocks (off sandbox stages each route answers as an unknown path). */
export const handler = areaRouter([listTestClocks, createTestClock, getTestClock, advanceTestClock, deleteTestClock], fallback);
