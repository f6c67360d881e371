import { CONTRACT_TIMINGS, propertySystemContract } from '../support/contracts/property-system-contract.ts';
import { InMemoryCatalogue } from '../support/memory/in-memory-catalogue.ts';
import { InMemoryPropertySystem } from '../support/memory/in-memory-property-system.ts';
import { ManualClock } from '../support/memory/in-memory-test-clock-store.ts';

propertySystemContract('InMemoryPropertySystem', async () => {
  const catalogue = new InMemoryCatalogue();
  const clock = new ManualClock('2027-01-10T09:00:00.000Z');
  return { system: new InMemoryPropertySystem(catalogue, clock, CONTRACT_TIMINGS), clock, saveCatalogue: (writes) => catalogue.save(writes) };
});
