import type { NotApplied } from '../channel-manager/channex.ts';

export type InboundStatus = 'RECEIVED' | 'APPLIED' | 'REFUSED';

/**
 * One Channex changes notification as received: its idempotency record (keyed by Channex's
 * request_id) and where its body is kept. Refused notifications are kept too, for operators.
 */
export interface InboundChanges {
  readonly requestId: string;
  readonly hotelCode: string;
  /** Our reference for the POST that carried it (the answer's unique_id). */
  readonly uniqueId: string;
  /** SHA-256 of the notification: the same request_id with another body is a conflict, not a repeat. */
  readonly bodyHash: string;
  /** Where the notification's JSON is stored (DocumentStore key). */
  readonly documentKey: string;
  readonly receivedAt: string;
  readonly status: InboundStatus;
  /** REFUSED: the parameter and the reason, as the answer gave them. */
  readonly refusal?: { readonly param: string; readonly message: string };
  /** APPLIED: what was reported and not applied, the nights changed and the events sent. */
  readonly notApplied?: readonly NotApplied[];
  readonly nights?: number;
  readonly events?: number;
  readonly appliedAt?: string;
}

export interface InboundOutcome {
  readonly status: 'APPLIED' | 'REFUSED';
  readonly refusal?: InboundChanges['refusal'];
  readonly notApplied?: readonly NotApplied[];
  readonly nights?: number;
  readonly events?: number;
  readonly at: string;
}

/** The idempotency records of inbound channel-manager notifications, and which listings Channex may reach. */
export interface ChannexInbox {
  /**
   * The listings of these that are connected to Channex: every listing where the stage sends
   * all bookings to Channex (PROPERTY_SYSTEM=channex), else those whose connection says
   * `channelManager: channex`. Channex's inbound key reaches only these; any other answers as
   * an unknown hotel (docs/channel-manager.md, "Which listings the key reaches").
   */
  connected(listingIds: readonly string[]): Promise<ReadonlySet<string>>;
  /** Records a notification once (conditional write); a repeat gets the first record back. */
  receive(record: InboundChanges): Promise<{ readonly created: boolean; readonly record: InboundChanges }>;
  get(requestId: string): Promise<InboundChanges | undefined>;
  /** Marks a RECEIVED notification applied or refused; a record already finished is left as it is. */
  finish(requestId: string, outcome: InboundOutcome): Promise<void>;
  /** A listing's latest notifications, newest first, at most `limit` (kept 90 days): its last ARI and its failures, for operators. */
  recent(hotelCode: string, limit: number): Promise<InboundChanges[]>;
  /**
   * The listings whose connection says `channelManager: channex`, by id, `limit` at a time after `after`
   * (the last id of the previous page); `next` when more follow. Operator-sized.
   */
  connections(page: { readonly limit: number; readonly after?: string }): Promise<{ readonly listingIds: readonly string[]; readonly next?: string }>;
  /** The one-off backfill of the index `connections` reads, for connections written before it existed; returns how many it indexed. */
  indexConnections(): Promise<number>;
}

/** Hands a recorded notification to the apply step (a FIFO queue, one message group per listing). */
export interface ChannexChangesQueue {
  send(requestId: string, hotelCode: string): Promise<void>;
}
