import { ITEM_IS_NEW } from '../items.ts';
import { keys } from '../keys.ts';

/*
 * The audit trail's items (docs/audit.md): an AuditEvent per change (PK = AUDIT#<target>,
 * SK = EVENT#<seq>) and its chain's AuditChain head (SK = HEAD), written in the change's own
 * transaction. Neither is ever updated or deleted.
 */

export const auditEventEntity = {
  name: 'AuditEvent',
  key: keys.auditEvent,
  conditions: {
    /** Event ids are random; the guard turns an impossible collision into a refusal instead of an overwrite. */
    isNew: ITEM_IS_NEW,
  },
} as const;

export const auditChainEntity = {
  name: 'AuditChain',
  key: keys.auditHead,
  conditions: {
    /** A chain's first event creates its head; a second "first" event of the same target is refused. */
    isNew: ITEM_IS_NEW,
    /**
     * A chain is extended only from the head the writer read or knew (`:seq`, `#hash` → hash,
     * `:hash`): two writers on one target cannot both take position n, and an event never names
     * a predecessor that is not the chain's last.
     */
    headIs: 'seq = :seq AND #hash = :hash',
  },
} as const;
