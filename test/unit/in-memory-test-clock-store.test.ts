import { testClockStoreContract } from '../support/contracts/test-clock-store-contract.ts';
import { InMemoryTestClockStore } from '../support/memory/in-memory-test-clock-store.ts';

testClockStoreContract('InMemoryTestClockStore', async () => {
  let next = 0;
  return { store: new InMemoryTestClockStore(), newGroup: async () => `group-${++next}` };
});
