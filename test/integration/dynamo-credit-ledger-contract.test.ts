import { creditLedgerContract } from '../support/contracts/credit-ledger-contract.ts';
import { newAgentGroup, seededGroups, testServices } from '../support/stack.ts';

creditLedgerContract('DynamoCreditLedger', async () => ({
  ledger: testServices().ledger,
  newGroup: async (terms) => {
    const { agentGroupId } = await newAgentGroup(terms);
    // Entries written straight through the port have no bookings behind them: the after-file booking invariant skips the group (the contract checks exposure itself).
    seededGroups.add(agentGroupId);
    return agentGroupId;
  },
}));
