import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { FORCED_SCENARIO_DAYS, SimulatedPropertySystem } from '../../infra/property-system/simulated-property-system.ts';
import { CONTRACT_TIMINGS, propertySystemContract } from '../support/contracts/property-system-contract.ts';
import { ManualClock } from '../support/memory/in-memory-test-clock-store.ts';
import { testServices } from '../support/stack.ts';

const subject = () => {
  const svc = testServices();
  const clock = new ManualClock('2027-01-10T09:00:00.000Z');
  const db = createDocumentClient(svc.config);
  return { db, table: svc.config.tableName, clock, system: new SimulatedPropertySystem(db, svc.config.tableName, clock, CONTRACT_TIMINGS), svc };
};

propertySystemContract('SimulatedPropertySystem', async () => {
  const { system, clock, svc } = subject();
  return { system, clock, saveCatalogue: (writes) => svc.catalogue.save(writes) };
});

describe('SimulatedPropertySystem: a forced scenario on the table', () => {
  it("is one item per key that the table's TTL removes a week after it was forced", async () => {
    // prepare
    const { db, table, system } = subject();
    const key = randomUUID();

    // act
    await system.force(key, 'booking-late');

    // assess
    const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.forcedScenario(key), ConsistentRead: true }));
    expect(Item).toEqual({
      ...keys.forcedScenario(key),
      entity: 'ForcedScenario',
      scenario: 'booking-late',
      expiresAt: Date.parse('2027-01-10T09:00:00.000Z') / 1000 + FORCED_SCENARIO_DAYS * 86_400,
    });
  });
});
