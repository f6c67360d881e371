import type { Amendment } from '../../../domain/bookings/amendment.ts';
import type { AmendmentLock } from '../../../domain/ports/amendment-store.ts';
import { ITEM_IS_NEW, itemOf } from '../items.ts';
import { keys } from '../keys.ts';

/**
 * Attributes of the item that are not the amendment's: its keys, and `scenario`, which
 * amendments stored before the sandbox scenarios moved to the scenario book carry (null, or a
 * scenario the book now holds; docs/decisions/sandbox.md).
 */
const NOT_AMENDMENT_ATTRIBUTES = new Set(['PK', 'SK', 'GSI2PK', 'GSI2SK', 'entity', 'scenario']);

/**
 * The Amendment item: PK = GROUP#<g>, SK = AMENDMENT#<bookingRef>#<amendmentId>; on GSI2 (open
 * amendment work, sharded) while a check is due.
 */
export const amendmentEntity = {
  name: 'Amendment',
  key: keys.amendment,
  toItem: (a: Amendment): Record<string, unknown> =>
    itemOf(
      'Amendment',
      {
        ...keys.amendment(a.agentGroupId, a.bookingRef, a.amendmentId),
        ...(a.nextCheckAt ? keys.openAmendmentIndex(a.nextCheckAt, a.agentGroupId, a.amendmentId) : {}),
      },
      a,
    ),
  /** The record without its keys. */
  fromItem: (item: Record<string, unknown>): Amendment =>
    Object.fromEntries(Object.entries(item).filter(([k]) => !NOT_AMENDMENT_ATTRIBUTES.has(k))) as unknown as Amendment,
  conditions: {
    isNew: ITEM_IS_NEW,
    /** Every amendment write is computed from one version and lands only on it (`#version` → version, `:version`). */
    atVersion: '#version = :version',
  },
} as const;

/** The booking's amendment in flight (PK = GROUP#<g>, SK = AMENDING#<bookingRef>): one at a time. */
export const amendmentLockEntity = {
  name: 'AmendmentLock',
  key: keys.amendmentLock,
  toItem: (a: Amendment): Record<string, unknown> =>
    itemOf('AmendmentLock', keys.amendmentLock(a.agentGroupId, a.bookingRef), {
      amendmentId: a.amendmentId,
      contentHash: a.contentHash,
      createdAt: a.createdAt,
    }),
  fromItem: (item: Record<string, unknown>): AmendmentLock => ({ amendmentId: item.amendmentId as string, contentHash: item.contentHash as string }),
  conditions: {
    /** A second amendment of the same booking while one is in flight is refused. */
    isNew: ITEM_IS_NEW,
    /** Only the amendment holding the lock releases it (`:id`). */
    heldBy: 'amendmentId = :id',
  },
} as const;
