import type { CreditTerms } from '../../domain/ledger/ledger.ts';
import { amendmentStoreContract } from '../support/contracts/amendment-store-contract.ts';
import { InMemoryAmendmentStore } from '../support/memory/in-memory-amendment-store.ts';
import { InMemoryBookingStore } from '../support/memory/in-memory-booking-store.ts';
import { InMemoryCatalogue } from '../support/memory/in-memory-catalogue.ts';
import { InMemoryCreditLedger } from '../support/memory/in-memory-credit-ledger.ts';

amendmentStoreContract('InMemoryAmendmentStore', async () => {
  const groups = new Map<string, CreditTerms>();
  const ledger = new InMemoryCreditLedger((g) => groups.get(g));
  const catalogue = new InMemoryCatalogue();
  const bookings = new InMemoryBookingStore(ledger, catalogue);
  let next = 0;
  return {
    store: new InMemoryAmendmentStore(bookings, ledger, catalogue),
    bookings,
    ledger,
    newGroup: async (terms) => {
      const agentGroupId = `group-${++next}`;
      groups.set(agentGroupId, terms);
      return { agentGroupId, partnerId: 'partner-1', channelId: 'channel-1' };
    },
    saveCatalogue: (writes) => catalogue.save(writes),
    months: (refs) => catalogue.getMonths(refs),
  };
});
