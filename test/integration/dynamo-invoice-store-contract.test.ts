import { invoiceStoreContract } from '../support/contracts/invoice-store-contract.ts';
import { newAgentGroup, seededGroups, testServices } from '../support/stack.ts';

// Real groups, each draft abandoned by its test: the stage's scheduled billing reads every group with open invoices.
invoiceStoreContract('DynamoInvoiceStore', async () => ({
  store: testServices().invoices,
  newGroup: async () => {
    const group = await newAgentGroup();
    // Lines written straight through the port, for bookings that do not exist: the after-file invariant skips the group.
    seededGroups.add(group.agentGroupId);
    return group.agentGroupId;
  },
}));
