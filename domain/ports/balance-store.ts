import type { Minor } from '../money.ts';

/** The group's net POSTED position of everything that occurred before `at` (an India midnight). */
export interface BalanceCheckpoint {
  readonly agentGroupId: string;
  /** The boundary, a canonical instant: entries with occurredAt < at are in `balance`. */
  readonly at: string;
  readonly balance: Minor;
  readonly writtenAt: string;
}

/** Balance checkpoints of agent groups' ledgers (domain/ledger/balance-checkpoints.ts). */
export interface BalanceStore {
  /** The group's latest checkpoint with `at` ≤ `atOrBefore`; one read, however many there are. */
  latest(agentGroupId: string, atOrBefore: string): Promise<BalanceCheckpoint | undefined>;
  /** Writes checkpoints; writing one again with the same figure is harmless. */
  put(checkpoints: readonly BalanceCheckpoint[]): Promise<void>;
}
