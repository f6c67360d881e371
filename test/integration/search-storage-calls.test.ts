import { beforeAll, describe, expect, it } from 'vitest';
import { httpEvent, lambdaContext } from '../../bench/harness.ts';
import { handler as createTestClock } from '../../functions/test-clocks/create-test-clock.ts';
import { handler as searchListings } from '../../functions/distribution/search-listings.ts';
import { servicesOfEveryArea } from '../../infra/compose/all.ts';
import { dynamoCalls, resetDynamoCalls } from '../../infra/dynamo/client.ts';
import { seedCatalogue, type CatalogueFixture } from '../support/catalogue-fixture.ts';
import { newAgentGroup, stack, testServices } from '../support/stack.ts';

/**
 * What a one-town search costs in storage calls with authentication on a sandbox stage
 * (docs/search.md, docs/decisions/sandbox.md "A group without a clock reads nothing for one"):
 * a group without a test clock pays nothing for clocks; a group with one pays its one read.
 */
type Invoke = (event: unknown, context: unknown) => Promise<{ statusCode: number; body: string }>;

let fx: CatalogueFixture;

beforeAll(async () => {
  // The handlers build their services from the environment, as a Lambda does.
  Object.assign(process.env, stack().env);
  // The handler modules are called directly, not through their functions' entries, so nothing has wired their adapter groups.
  servicesOfEveryArea();
  fx = await seedCatalogue();
});

const oneTown = (apiKey: string) =>
  httpEvent('POST', '/v1/listings/search', {
    key: apiKey,
    body: JSON.stringify({
      rawParams: [
        { filterName: 'checkIn', filterValues: ['2027-03-02'] },
        { filterName: 'checkOut', filterValues: ['2027-03-04'] },
        { filterName: 'city', filterValues: ['Goa'] },
      ],
    }),
  });

/** The storage calls of one search of `apiKey`'s, by operation. */
async function callsOfSearch(apiKey: string) {
  // A first search warms the process (the route's lazily built adapters), as a warm Lambda is.
  await (searchListings as Invoke)(oneTown(apiKey), lambdaContext);
  resetDynamoCalls();
  const res = await (searchListings as Invoke)(oneTown(apiKey), lambdaContext);
  expect(res.statusCode, res.body).toBe(200);
  expect((JSON.parse(res.body) as { singleListings: unknown[] }).singleListings.length, 'the town has listings').toBeGreaterThan(0);
  return { total: dynamoCalls.total, byOperation: { ...dynamoCalls.byOperation } };
}

describe('A one-town search on a sandbox stage', () => {
  it('takes 5 storage calls with authentication for a group without a test clock, and one GetItem more once the group has one', async () => {
    // prepare
    expect(testServices().config.isSandbox).toBe(true);
    const group = await newAgentGroup({ channelId: fx.channelA });

    // act
    const withoutClock = await callsOfSearch(group.apiKey);
    const created = await (createTestClock as Invoke)(httpEvent('POST', '/v1/test-clocks', { key: group.apiKey, body: '{}' }), lambdaContext);
    const withClock = await callsOfSearch(group.apiKey);

    // assess
    expect(created.statusCode, created.body).toBe(201);
    expect(withoutClock.total).toBe(5);
    expect(withClock.total).toBe(6);
    expect(withClock.byOperation.GetItemCommand).toBe((withoutClock.byOperation.GetItemCommand ?? 0) + 1);
  });
});
