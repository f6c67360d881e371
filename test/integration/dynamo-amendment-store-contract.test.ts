import { amendmentStoreContract } from '../support/contracts/amendment-store-contract.ts';
import { newAgentGroup, seededGroups, testServices } from '../support/stack.ts';

amendmentStoreContract('DynamoAmendmentStore', async () => {
  const svc = testServices();
  return {
    store: svc.amendments,
    bookings: svc.bookings,
    ledger: svc.ledger,
    newGroup: async (terms) => {
      const group = await newAgentGroup(terms);
      // Bookings and amendments written straight through the ports (left PROCESSING, listings of no catalogue): the after-file booking invariant skips the group.
      seededGroups.add(group.agentGroupId);
      return group;
    },
    saveCatalogue: (writes) => svc.catalogue.save(writes),
    months: (refs) => svc.catalogue.getMonths(refs),
  };
});
