import { billingRunControlContract } from '../support/contracts/billing-run-control-contract.ts';
import { invoiceStoreContract } from '../support/contracts/invoice-store-contract.ts';
import { newAgentGroup, seededGroups, testServices } from '../support/stack.ts';

/** A real group, marked seeded: lines are written straight through the port, for bookings that do not exist, so the after-file invariant skips it. */
async function newGroup(): Promise<string> {
  const group = await newAgentGroup();
  seededGroups.add(group.agentGroupId);
  return group.agentGroupId;
}

// Real groups, each draft abandoned by its test: the stage's scheduled billing reads every group with open invoices.
invoiceStoreContract('DynamoInvoiceStore', async () => ({ store: testServices().invoices, marks: testServices().bookingMarks, newGroup }));

billingRunControlContract('DynamoBillingRunControl', async () => ({ control: testServices().billingControl, newGroup }));
