import { afterAll } from 'vitest';
import { assertBookingInvariants } from './booking-invariant.ts';
import { createdGroups, seededGroups } from './stack.ts';

/*
 * After every test file: the booking/ledger invariant on each agent group the file
 * created (every CONFIRMED booking has exactly one POSTED charge, every FAILED one a
 * RELEASED authorization, exposure equals the sum of its entries). A file that created no
 * group (unit tests) checks nothing and needs no stack.
 */
afterAll(async () => {
  for (const agentGroupId of createdGroups) if (!seededGroups.has(agentGroupId)) await assertBookingInvariants(agentGroupId);
}, 120_000);
