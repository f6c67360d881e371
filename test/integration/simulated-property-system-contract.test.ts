import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { SimulatedPropertySystem } from '../../infra/property-system/simulated-property-system.ts';
import { CONTRACT_TIMINGS, propertySystemContract } from '../support/contracts/property-system-contract.ts';
import { ManualClock } from '../support/memory/in-memory-test-clock-store.ts';
import { testServices } from '../support/stack.ts';

propertySystemContract('SimulatedPropertySystem', async () => {
  const svc = testServices();
  const clock = new ManualClock('2027-01-10T09:00:00.000Z');
  return {
    system: new SimulatedPropertySystem(createDocumentClient(svc.config), svc.config.tableName, clock, CONTRACT_TIMINGS),
    clock,
    saveCatalogue: (writes) => svc.catalogue.save(writes),
  };
});
