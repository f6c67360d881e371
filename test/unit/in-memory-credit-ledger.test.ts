import type { CreditTerms } from '../../domain/ledger/ledger.ts';
import { creditLedgerContract } from '../support/contracts/credit-ledger-contract.ts';
import { InMemoryCreditLedger } from '../support/memory/in-memory-credit-ledger.ts';

creditLedgerContract('InMemoryCreditLedger', async () => {
  const groups = new Map<string, CreditTerms>();
  let next = 0;
  return {
    ledger: new InMemoryCreditLedger((g) => groups.get(g)),
    newGroup: async (terms) => {
      const g = `group-${++next}`;
      groups.set(g, terms);
      return g;
    },
  };
});
