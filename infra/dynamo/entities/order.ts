import { ITEM_EXISTS, ITEM_IS_NEW } from '../items.ts';
import { keys } from '../keys.ts';

/** The Order item (PK = GROUP#<g>, SK = ORDER#<id>). */
export const orderEntity = {
  name: 'Order',
  key: keys.order,
  conditions: {
    /** A new order never overwrites another: ids are random UUIDs, so a clash is a bug to surface. */
    isNew: ITEM_IS_NEW,
    /** A reprice only updates an order that exists in this group; it never creates one. */
    exists: ITEM_EXISTS,
  },
} as const;
