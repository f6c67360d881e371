import type { Sha256Hex } from '../ledger/request-hash.ts';
import type { AuditTrail } from '../ports/audit-trail.ts';
import { verifyChain, type ChainBreak } from './audit-event.ts';

export interface TrailVerdict {
  readonly chains: number;
  readonly events: number;
  /** The first chain (in target order) that does not hold, where it breaks; null when every chain holds. */
  readonly firstBreak: ChainBreak | null;
}

/** `audit verify`: walks every chain, oldest event first, and names the first break. */
export async function verifyTrail(trail: AuditTrail, sha256: Sha256Hex, only?: string): Promise<TrailVerdict> {
  let events = 0;
  const targets = only ? [only] : await trail.chainTargets();
  for (const target of targets) {
    const chain = await trail.readChain(target);
    events += chain.events.length;
    const broken = verifyChain(target, chain.events, chain.head, sha256);
    if (broken) return { chains: targets.length, events, firstBreak: broken };
  }
  return { chains: targets.length, events, firstBreak: null };
}
