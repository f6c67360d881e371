import { ITEM_EXISTS, ITEM_IS_NEW } from '../items.ts';
import { keys } from '../keys.ts';

/*
 * A group's Dues item (PK = GROUP#<g>, SK = DUES: outstanding, openCount, complete) and a DueMarker
 * per invoice still owing (SK = DUE#<dueDate>#<id>); infra/dynamo/dues.ts moves them with the
 * invoices (docs/data-model.md "Dues").
 */
export const duesEntity = {
  name: 'Dues',
  key: keys.dues,
  conditions: {
    /** Marked complete where a write created it meanwhile: the mark goes on the item as it is now. */
    exists: ITEM_EXISTS,
    /** Created complete and at zero only where absent: a write racing this one created it first, and the next read marks it. */
    isNew: ITEM_IS_NEW,
  },
} as const;
