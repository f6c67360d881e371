import { testClockStoreContract } from '../support/contracts/test-clock-store-contract.ts';
import { newAgentGroup, testServices } from '../support/stack.ts';

// Real groups, not bare ids: the stack's scheduled jobs sweep every group that has a clock.
testClockStoreContract('DynamoTestClockStore', async () => ({
  store: testServices().testClocks,
  newGroup: async () => (await newAgentGroup()).agentGroupId,
}));
