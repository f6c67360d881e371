import type { CreditTerms } from '../../domain/ledger/ledger.ts';
import { bookingStoreContract } from '../support/contracts/booking-store-contract.ts';
import { InMemoryBookingStore } from '../support/memory/in-memory-booking-store.ts';
import { InMemoryCreditLedger } from '../support/memory/in-memory-credit-ledger.ts';

bookingStoreContract('InMemoryBookingStore', async () => {
  const groups = new Map<string, CreditTerms>();
  const ledger = new InMemoryCreditLedger((g) => groups.get(g));
  let next = 0;
  return {
    store: new InMemoryBookingStore(ledger),
    ledger,
    newGroup: async (terms) => {
      const agentGroupId = `group-${++next}`;
      groups.set(agentGroupId, terms);
      return { agentGroupId, partnerId: 'partner-1', channelId: 'channel-1' };
    },
  };
});
