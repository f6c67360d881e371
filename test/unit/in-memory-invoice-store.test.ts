import { billingRunControlContract } from '../support/contracts/billing-run-control-contract.ts';
import { invoiceStoreContract } from '../support/contracts/invoice-store-contract.ts';
import { InMemoryBillingRunControl } from '../support/memory/in-memory-billing-run-control.ts';
import { InMemoryInvoiceStore } from '../support/memory/in-memory-invoice-store.ts';

invoiceStoreContract('InMemoryInvoiceStore', async () => {
  let next = 0;
  const store = new InMemoryInvoiceStore();
  return { store, marks: store, newGroup: async () => `group-${++next}` };
});

billingRunControlContract('InMemoryBillingRunControl', async () => {
  let next = 0;
  return { control: new InMemoryBillingRunControl(), newGroup: async () => `group-${++next}` };
});
