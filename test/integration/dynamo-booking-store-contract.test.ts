import { bookingStoreContract } from '../support/contracts/booking-store-contract.ts';
import { newAgentGroup, seededGroups, testServices } from '../support/stack.ts';

bookingStoreContract('DynamoBookingStore', async () => ({
  store: testServices().bookings,
  ledger: testServices().ledger,
  newGroup: async (terms) => {
    const group = await newAgentGroup(terms);
    // Bookings written straight through the port (left PROCESSING, fixtures' listings): the after-file booking invariant skips the group (the contract checks exposure itself).
    seededGroups.add(group.agentGroupId);
    return group;
  },
}));
