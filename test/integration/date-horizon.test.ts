import { beforeAll, describe, expect, it } from 'vitest';
import { HORIZON } from '../../domain/catalogue/calendar.ts';
import { ValidationError } from '../../domain/errors.ts';
import type { AgentGroupPrincipal } from '../../domain/principal.ts';
import { readAvailability } from '../../domain/reads/distribution-reads.ts';
import { dynamoCalls } from '../../infra/dynamo/client.ts';
import { seedCatalogue, type CatalogueFixture } from '../support/catalogue-fixture.ts';
import { testServices, uniqueId } from '../support/stack.ts';

/**
 * Far-future windows against DynamoDB Local, judged by the calls sent (dynamoCalls counts
 * every request the SDK sends, retries included), never by how long they took: a window at
 * the horizon reads its own months and no more, one past it reads nothing.
 */
let fx: CatalogueFixture;
beforeAll(async () => {
  fx = await seedCatalogue();
}, 120_000);

const callsDuring = async <T>(work: () => Promise<T>): Promise<{ calls: number; result: T | undefined; error: unknown }> => {
  const before = dynamoCalls.total;
  try {
    const result = await work();
    return { calls: dynamoCalls.total - before, result, error: undefined };
  } catch (error) {
    return { calls: dynamoCalls.total - before, result: undefined, error };
  }
};

const groupOn = (channelId: string): AgentGroupPrincipal => ({
  kind: 'agent-group',
  agentGroupId: uniqueId('g'),
  partnerId: 'p',
  channelId,
  keyId: 'k',
  keyPrefix: 'test',
});

describe('date windows near and past the horizon', () => {
  it('reads the month keys of 9999-12 in one BatchGet: month order is counted, not compared as text (10000-01 sorted before 9999-12)', async () => {
    const reader = testServices().reader;
    const ids = Object.values(fx.propertiesOf).flat();
    const { calls, result, error } = await callsDuring(() => reader.propertyMonths(ids, '9999-12', '9999-12'));
    expect(error).toBeUndefined();
    expect(result).toEqual([]);
    expect(calls).toBe(1);
  });

  it('refuses an availability window past the horizon with a 400 naming from, before any storage call', async () => {
    const svc = testServices();
    const { calls, error } = await callsDuring(() =>
      readAvailability(svc, groupOn(fx.channelA), { listingIds: [fx.both, fx.onlyA], from: '9999-12-29', to: '9999-12-30' }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).param).toBe('from');
    expect((error as Error).message).toContain(HORIZON.last);
    expect(calls).toBe(0);
  });

  it('answers the last month of the horizon with the feed, listing and month reads of that month only', async () => {
    const svc = testServices();
    const listingIds = [fx.both, fx.onlyA];
    const { calls, result, error } = await callsDuring(() => readAvailability(svc, groupOn(fx.channelA), { listingIds, from: '2099-12-01', to: HORIZON.last }));
    expect(error).toBeUndefined();
    expect(result!.data.map((l) => l.listingId).sort()).toEqual([...listingIds].sort());
    expect(result!.data.every((l) => l.properties.every((p) => p.days.length === 0))).toBe(true);
    // One BatchGet of distribution rows, the listing views (and their properties' owners), one of the months:
    // a handful of calls, where a window that ran on past 9999 made thousands.
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThanOrEqual(5);
  });

  it('answers an account audit query from the last instant with no upper bound as an empty page, not a refused query', async () => {
    const page = await testServices().auditTrail.listAccount(uniqueId('acct'), { limit: 5, from: '9999-12-31T23:59:59.000Z' });
    expect(page).toEqual({ events: [], next: null });
  });
});
