import { afterAll } from 'vitest';
import { inParallel } from '../../infra/dynamo/in-parallel.ts';
import { assertBookingInvariants } from './booking-invariant.ts';
import { createdGroups, seededGroups } from './stack.ts';

/*
 * After every test file: the booking/ledger invariant on each agent group the file
 * created (every CONFIRMED booking has exactly one POSTED charge, every FAILED one a
 * RELEASED authorization, exposure equals the sum of its entries). A file that created no
 * group (unit tests) checks nothing and needs no stack.
 */
afterAll(async () => {
  // Reads only, a group at a time each: a few groups at once (a randomised file makes a hundred).
  await inParallel(
    [...createdGroups].filter((g) => !seededGroups.has(g)),
    4,
    (agentGroupId) => assertBookingInvariants(agentGroupId),
  );
}, 120_000);
