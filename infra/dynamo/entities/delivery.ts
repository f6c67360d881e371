import type { Delivery } from '../../../domain/deliveries/delivery.ts';
import { ITEM_IS_NEW } from '../items.ts';
import { keys } from '../keys.ts';
import { TTL_ATTRIBUTE } from '../table.ts';

/*
 * The Delivery item (the outbox): PK = PARTNER#<p>, SK = DELIVERY#<id>; on GSI1 under its endpoint
 * or booking, on GSI2 while PENDING with a next attempt (sharded). DynamoDeliveryStore takes its
 * item and conditions from here.
 */

/** Delivery records outlive their last attempt by this long, then TTL removes them. */
export const DELIVERY_RETENTION_DAYS = 30;

const INTERNAL = new Set(['PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'entity', 'attemptCount', 'claimId', 'claimedUntil', TTL_ATTRIBUTE]);

const expiresAt = (createdAt: string): number => Math.floor(Date.parse(createdAt) / 1000) + DELIVERY_RETENTION_DAYS * 86_400;

export const deliveryEntity = {
  name: 'Delivery',
  key: keys.delivery,
  toItem: (d: Delivery): Record<string, unknown> => ({
    ...keys.delivery(d.partnerId, d.deliveryId),
    ...(d.kind === 'webhook'
      ? keys.endpointDeliveryIndex(d.endpointId, d.createdAt, d.deliveryId)
      : keys.bookingDeliveryIndex(d.bookingRef, d.createdAt, d.deliveryId)),
    ...(d.status === 'PENDING' && d.nextAttemptAt ? keys.pendingDeliveryIndex(d.nextAttemptAt, d.deliveryId) : {}),
    entity: 'Delivery',
    ...d,
    attemptCount: d.attempts.length,
    [TTL_ATTRIBUTE]: expiresAt(d.createdAt),
  }),
  fromItem: (item: Record<string, unknown>): Delivery => Object.fromEntries(Object.entries(item).filter(([k]) => !INTERNAL.has(k))) as unknown as Delivery,
  /*
   * The conditions guard one timeline: a delivery with n attempts is PENDING; a worker claims
   * attempt n+1 (claimId, claimedUntil); it sends; it records the attempt under its claim, moving
   * the count to n+1. A second copy of the same message meets either a live claim or a count that
   * moved on, and stops before sending. Placeholders: `#status` → status, `:pending` → 'PENDING',
   * `:count` the attempts read, `:now` the time, and those named at each.
   */
  conditions: {
    /** Attempt n+1 may start: still PENDING at n attempts, and nobody holds a live claim. */
    claimable: '#status = :pending AND attemptCount = :count AND (attribute_not_exists(claimedUntil) OR claimedUntil < :now)',
    /** The attempt is recorded only by the claim that made it (`:claimId`), onto the count it started from. */
    stillClaimed: 'claimId = :claimId AND attemptCount = :count',
    /** Untouched since it was read: PENDING at the same count, nobody mid-send. */
    idleAtCount: '#status = :pending AND attemptCount = :count AND (attribute_not_exists(claimedUntil) OR claimedUntil < :now)',
    /** A callback's id is its event id: a second publish of the same outcome must find the first and leave it be. */
    notYetCreated: ITEM_IS_NEW,
    /** The sweeper re-queues only the version it saw overdue (`:seen` its next attempt). */
    overdueAsSeen: '#status = :pending AND attemptCount = :count AND nextAttemptAt = :seen',
    /** A callback's text is erased only as read (`:previous` its payload): no attempt recorded since, so no answer is lost and none is left behind. */
    textAsRead: 'attemptCount = :count AND payload = :previous',
  },
} as const;
