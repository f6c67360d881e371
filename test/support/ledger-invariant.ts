import { expect } from 'vitest';
import { exposureOf } from '../../domain/ledger/ledger.ts';
import type { CreditLedger, LedgerAudit } from '../../domain/ports/credit-ledger.ts';

/**
 * The credit gate's invariant: the group's exposure counter equals the sum of its counting
 * entries (everything but RELEASED). Call after every scenario that moved the ledger.
 */
export async function assertLedgerInvariant(ledger: CreditLedger, agentGroupId: string): Promise<LedgerAudit> {
  const audit = await ledger.audit(agentGroupId);
  expect(audit.exposureCounter, `exposure counter of ${agentGroupId}`).toBe(exposureOf(audit.entries));
  return audit;
}
