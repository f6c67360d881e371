import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authenticate } from '../../domain/authenticate.ts';
import { newTestClock } from '../../domain/test-clocks/test-clock.ts';
import { sha256Hex } from '../../infra/crypto/api-keys.ts';
import { testClockStoreContract } from '../support/contracts/test-clock-store-contract.ts';
import { newAgentGroup, testServices } from '../support/stack.ts';

// Real groups, not bare ids: the stack's scheduled jobs sweep every group that has a clock.
testClockStoreContract('DynamoTestClockStore', async () => ({
  store: testServices().testClocks,
  newGroup: async () => (await newAgentGroup()).agentGroupId,
}));

describe('DynamoTestClockStore keeps the group record in step', () => {
  const principal = async (apiKey: string) => {
    const svc = testServices();
    const deps = { tenants: svc.tenants, rateLimiter: svc.rateLimiter, defaultPolicy: svc.config.rateLimit };
    return (await authenticate(deps, sha256Hex(apiKey), 'v1', Date.now())).principal;
  };

  it("names the clock on the group's record, and so on its key's principal, from creation to removal and no longer", async () => {
    const { testClocks, tenants } = testServices();
    const g = await newAgentGroup();
    expect((await tenants.getAgentGroup(g.agentGroupId))?.testClockId).toBeUndefined();
    expect(await principal(g.apiKey)).not.toHaveProperty('testClockId');

    const clock = newTestClock(randomUUID(), g.agentGroupId, new Date('2027-01-10T09:00:00Z'));
    expect(await testClocks.create(clock)).toBe(true);
    expect((await tenants.getAgentGroup(g.agentGroupId))?.testClockId).toBe(clock.id);
    expect(await principal(g.apiKey)).toMatchObject({ agentGroupId: g.agentGroupId, testClockId: clock.id });

    // A refused second clock leaves the record naming the first.
    expect(await testClocks.create({ ...clock, id: randomUUID() })).toBe(false);
    expect((await tenants.getAgentGroup(g.agentGroupId))?.testClockId).toBe(clock.id);

    // A refused removal (stale version) leaves both; the removal at the stored version takes both.
    expect(await testClocks.remove(g.agentGroupId, clock.id, clock.version + 1)).toBe(false);
    expect((await tenants.getAgentGroup(g.agentGroupId))?.testClockId).toBe(clock.id);
    expect(await testClocks.remove(g.agentGroupId, clock.id, clock.version)).toBe(true);
    expect((await tenants.getAgentGroup(g.agentGroupId))?.testClockId).toBeUndefined();
    expect(await principal(g.apiKey)).not.toHaveProperty('testClockId');
  });

  it('refuses a clock for a group that does not exist, writing nothing', async () => {
    const { testClocks } = testServices();
    const missing = `group-${randomUUID().slice(0, 8)}`;
    await expect(testClocks.create(newTestClock(randomUUID(), missing, new Date('2027-01-10T09:00:00Z')))).rejects.toThrow();
    expect(await testClocks.get(missing)).toBeUndefined();
  });
});
