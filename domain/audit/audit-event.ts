import { canonicalJson, type Sha256Hex } from '../ledger/request-hash.ts';

/**
 * The audit trail (docs/audit.md): one append-only event per money or access change, written
 * in the same transaction as the change. Events chain by hash within their target's chain,
 * so an edited or a deleted event is found by `audit verify`.
 */

export type ActorKind = 'operator' | 'partner-key' | 'person' | 'system';

/** Who made a change and under which request: a partner key id, an operator's name or IAM principal. */
export interface AuditOrigin {
  readonly actor: string;
  readonly actorKind: ActorKind;
  readonly requestId: string;
}

/** Plain figures only: ids, states, money in paise, dates. Never a guest's personal data or a secret. */
export type AuditFields = Readonly<Record<string, string | number | boolean | null | readonly string[]>>;

/** A change to record, before the trail places it in its chain. */
export interface AuditDraft {
  readonly id: string;
  readonly at: string;
  readonly origin: AuditOrigin;
  /** `<noun>.<verb>`, e.g. `booking.created`, `group.limit-changed`. */
  readonly action: string;
  /** `<kind>:<id>`, e.g. `booking:<bookingRef>`; also the chain the event joins. */
  readonly target: string;
  /** The agent group (or partner, `partner:<id>`) whose account the change belongs to; null for stage-wide changes. */
  readonly account: string | null;
  readonly before: AuditFields | null;
  readonly after: AuditFields | null;
}

export interface AuditEvent {
  readonly id: string;
  readonly at: string;
  readonly actor: string;
  readonly actorKind: ActorKind;
  readonly action: string;
  readonly target: string;
  readonly account: string | null;
  readonly before: AuditFields | null;
  readonly after: AuditFields | null;
  readonly requestId: string;
  readonly stage: string;
  /** Position in the target's chain, from 1. */
  readonly seq: number;
  /** The hash of the chain's previous event; GENESIS_HASH for the first. */
  readonly prevHash: string;
  readonly hash: string;
}

/** Where a chain stands: its last event's position and hash. */
export interface ChainHead {
  readonly seq: number;
  readonly hash: string;
}

export const GENESIS_HASH = '0'.repeat(64);

/**
 * Field names never recorded, at any depth: a guest's personal data (erased after the stay,
 * and a hashed event cannot be rewritten) and secrets. The builders below already pick plain
 * figures; this is the second line that holds when a builder is careless.
 */
const NEVER_RECORDED = new Set([
  'primaryGuest',
  'additionalGuests',
  'guests',
  'guest',
  'firstName',
  'lastName',
  'name',
  'fullName',
  'email',
  'phone',
  'mobile',
  'specialRequests',
  'secret',
  'signingSecret',
  'authSecret',
  'authHeaderValue',
  'password',
  'token',
  'apiKey',
  'plaintext',
  'keyHash',
  'sealed',
]);

export const isRecordable = (field: string): boolean => !NEVER_RECORDED.has(field);

/**
 * Only the fields that differ between `before` and `after`, minus those never recorded: an
 * update records what moved, not the whole record. A creation passes before = null.
 */
export function changedFields(before: AuditFields | null, after: AuditFields | null): { before: AuditFields | null; after: AuditFields | null } {
  const keep = (o: AuditFields | null) => (o ? Object.fromEntries(Object.entries(o).filter(([k, v]) => isRecordable(k) && v !== undefined)) : null);
  const b = keep(before);
  const a = keep(after);
  if (!b || !a) return { before: b, after: a };
  const moved = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((k) => canonicalJson(b[k] ?? null) !== canonicalJson(a[k] ?? null));
  const pick = (o: AuditFields) => Object.fromEntries(moved.map((k) => [k, o[k] ?? null]));
  return { before: pick(b), after: pick(a) };
}

/** The draft placed after `head` in its chain (null: the chain's first event). */
export function chainEvent(draft: AuditDraft, stage: string, head: ChainHead | null, sha256: Sha256Hex): AuditEvent {
  const { before, after } = changedFields(draft.before, draft.after);
  const unhashed = {
    id: draft.id,
    at: draft.at,
    actor: draft.origin.actor,
    actorKind: draft.origin.actorKind,
    action: draft.action,
    target: draft.target,
    account: draft.account,
    before,
    after,
    requestId: draft.origin.requestId,
    stage,
    seq: (head?.seq ?? 0) + 1,
    prevHash: head?.hash ?? GENESIS_HASH,
  };
  return { ...unhashed, hash: eventHash(unhashed, sha256) };
}

/** The hash covers every field of the event, its position and its predecessor's hash. */
export const eventHash = (event: Omit<AuditEvent, 'hash'>, sha256: Sha256Hex): string => sha256(canonicalJson(event));

/** The first place a chain does not hold, in words an operator can act on. */
export interface ChainBreak {
  readonly target: string;
  readonly seq: number;
  readonly eventId: string | null;
  readonly reason: string;
}

/**
 * Walks one chain's events (ascending seq) against its head: every event's hash is its
 * content's, every prevHash its predecessor's hash, seq runs 1..n without a gap, and the
 * head names the last one. Null when the chain holds.
 */
export function verifyChain(target: string, events: readonly AuditEvent[], head: ChainHead | null, sha256: Sha256Hex): ChainBreak | null {
  let prev: ChainHead = { seq: 0, hash: GENESIS_HASH };
  for (const e of events) {
    if (e.seq !== prev.seq + 1) return { target, seq: prev.seq + 1, eventId: null, reason: `event ${prev.seq + 1} is missing (next found is ${e.seq})` };
    if (e.target !== target) return { target, seq: e.seq, eventId: e.id, reason: `event names target ${e.target}` };
    if (e.prevHash !== prev.hash) return { target, seq: e.seq, eventId: e.id, reason: 'prevHash does not match the previous event' };
    const { hash, ...rest } = e;
    if (eventHash(rest, sha256) !== hash) return { target, seq: e.seq, eventId: e.id, reason: 'content does not match its hash (edited)' };
    prev = { seq: e.seq, hash };
  }
  if (!head) return events.length ? { target, seq: prev.seq, eventId: null, reason: 'chain head is missing' } : null;
  if (prev.seq > head.seq)
    return { target, seq: head.seq + 1, eventId: null, reason: `events past the head (at ${head.seq}): written outside a change's transaction` };
  if (head.seq !== prev.seq)
    return { target, seq: prev.seq + 1, eventId: null, reason: `head is at event ${head.seq} but the chain ends at ${prev.seq} (deleted)` };
  if (head.hash !== prev.hash) return { target, seq: head.seq, eventId: null, reason: 'head hash does not match the last event' };
  return null;
}

/** The origin of a partner's call: its API key id under the request's id. */
export const partnerOrigin = (keyId: string, requestId: string): AuditOrigin => ({ actor: keyId, actorKind: 'partner-key', requestId });

/** The origin of an operator's command: who ran it (a name, or the IAM principal in the cloud) and the run's id. */
export const operatorOrigin = (actor: string, runId: string): AuditOrigin => ({ actor, actorKind: 'operator', requestId: runId });

/** The origin of the service's own work (a scheduled job, a worker), named by the job. */
export const systemOrigin = (job: string, runId: string): AuditOrigin => ({ actor: job, actorKind: 'system', requestId: runId });
