import type { Sha256Hex } from '../ledger/request-hash.ts';
import type { AuditTrail } from '../ports/audit-trail.ts';
import { verifyChain, type ChainBreak } from './audit-event.ts';
import { DIGEST_STALE_MS, type Anchors, type DigestHead } from './digest.ts';

export interface TrailVerdict {
  readonly chains: number;
  readonly events: number;
  /** Digests read and checked; 0 when verified without them. */
  readonly digests: number;
  readonly latestDigestAt: string | null;
  /** Every chain that does not hold (in target order), where it breaks; empty when every chain holds. */
  readonly breaks: readonly ChainBreak[];
  /** Problems with the digests themselves (signature, link, staleness). */
  readonly digestBreaks: readonly string[];
  readonly firstBreak: ChainBreak | null;
}

/** How many broken chains are named before the walk stops: enough to act on, bounded output. */
const MAX_BREAKS = 100;

/**
 * `audit verify`: walks every chain, oldest event first. With the digests' anchors it also walks
 * every chain a digest names (a chain whose head was deleted is invisible to the head index) and
 * checks that the chain still holds, unchanged, the event each digest last saw.
 */
export async function verifyTrail(trail: AuditTrail, sha256: Sha256Hex, opts: { only?: string; anchors?: Anchors; now?: Date } = {}): Promise<TrailVerdict> {
  const anchors = opts.anchors;
  const listed = opts.only ? [opts.only] : await trail.chainTargets();
  const targets = opts.only ? listed : [...new Set([...listed, ...(anchors?.heads.keys() ?? [])])].sort();
  const breaks: ChainBreak[] = [];
  let events = 0;
  for (const target of targets) {
    const chain = await trail.readChain(target);
    events += chain.events.length;
    const anchor = anchors?.heads.get(target);
    const broken = verifyChain(target, chain.events, chain.head, sha256) ?? (anchor ? againstAnchor(target, chain.events, chain.head !== null, anchor) : null);
    if (broken) breaks.push(broken);
    if (breaks.length >= MAX_BREAKS) break;
  }
  const digestBreaks = [...(anchors?.breaks ?? [])];
  if (anchors && !opts.only) {
    const now = (opts.now ?? new Date()).getTime();
    if (anchors.latestEndTime === null) digestBreaks.push('no valid digest: the digest job has not run, or its digests were removed');
    else if (now - Date.parse(anchors.latestEndTime) > DIGEST_STALE_MS)
      digestBreaks.push(`the latest valid digest ends at ${anchors.latestEndTime}: the digest job stopped, or later digests were removed`);
  }
  return {
    chains: targets.length,
    events,
    digests: anchors?.digests ?? 0,
    latestDigestAt: anchors?.latestEndTime ?? null,
    breaks,
    digestBreaks,
    firstBreak: breaks[0] ?? null,
  };
}

/** A chain that holds on its own against what the latest digest saw of it. */
function againstAnchor(
  target: string,
  events: readonly { seq: number; id: string; hash: string }[],
  hasHead: boolean,
  anchor: DigestHead & { digestKey: string },
): ChainBreak | null {
  if (events.length === 0 && !hasHead)
    return {
      target,
      seq: anchor.seq,
      eventId: null,
      reason: `chain deleted: digest ${anchor.digestKey} saw it at event ${anchor.seq}, the table holds neither its events nor its head`,
    };
  const seen = events.find((e) => e.seq === anchor.seq);
  if (!seen)
    return {
      target,
      seq: anchor.seq,
      eventId: null,
      reason: `chain truncated: it ends at event ${events.at(-1)?.seq ?? 0} but digest ${anchor.digestKey} saw event ${anchor.seq} (events deleted and the head rewound)`,
    };
  if (seen.hash !== anchor.hash)
    return {
      target,
      seq: anchor.seq,
      eventId: seen.id,
      reason: `chain rewritten: event ${anchor.seq} does not match digest ${anchor.digestKey} (an event at or before it was edited and the chain re-hashed)`,
    };
  return null;
}
