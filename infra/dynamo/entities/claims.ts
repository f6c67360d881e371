import { ITEM_IS_NEW } from '../items.ts';
import { keys } from '../keys.ts';
import { TTL_ATTRIBUTE } from '../table.ts';

/*
 * Items that one caller at a time holds: an idempotency key's claim and the IRP sign-in lease.
 * Each write is conditional on the holder, so a caller whose claim or lease was taken over
 * cannot touch its successor's.
 */

/** An idempotency key (PK = IDEMPOTENCY#<scope>, SK = <key>), expiring through the table's TTL. */
export const idempotencyKeyEntity = {
  name: 'IdempotencyKey',
  key: keys.idempotencyKey,
  conditions: {
    /**
     * Free to claim when no item holds it, its item has expired (the table's TTL deletes late),
     * or its claim has no answer and its lease ran out (the run that claimed it died); `:now` in
     * epoch seconds.
     */
    free: `${ITEM_IS_NEW} OR ${TTL_ATTRIBUTE} < :now OR (attribute_not_exists(replyJson) AND leaseUntil < :now)`,
    /** Kept or freed only by the claim that holds it (`:claimId`). */
    claimedBy: 'claimId = :claimId',
  },
} as const;

/** A GSTIN's IRP session (PK = IRPSESSION#<gstin>): the sealed token and the sign-in lease. */
export const irpSessionEntity = {
  name: 'IrpSession',
  key: keys.irpSession,
  conditions: {
    /** No other holder's lease is live (`:now`). */
    leaseFree: '(attribute_not_exists(leaseUntil) OR leaseUntil < :now)',
    /** The session is still the one the caller read (`:seen` its expiry), or none when it read none. */
    sessionAsSeen: (seen: boolean) => (seen ? 'expiresAt = :seen' : 'attribute_not_exists(expiresAt)'),
    /** Stored or freed only by the lease's holder (`:h`): one whose lease lapsed and was taken over leaves it. */
    heldBy: 'leaseHolder = :h',
  },
} as const;
