import { invoiceStoreContract } from '../support/contracts/invoice-store-contract.ts';
import { InMemoryInvoiceStore } from '../support/memory/in-memory-invoice-store.ts';

invoiceStoreContract('InMemoryInvoiceStore', async () => {
  let next = 0;
  return { store: new InMemoryInvoiceStore(), newGroup: async () => `group-${++next}` };
});
