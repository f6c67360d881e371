import { ITEM_IS_NEW } from '../items.ts';
import { keys } from '../keys.ts';

/* The sandbox IRP's SandboxIrpRegistration item (PK = SANDBOXIRP#<irn>): one per document it registered. */
export const sandboxIrpRegistrationEntity = {
  name: 'SandboxIrpRegistration',
  key: keys.sandboxIrn,
  conditions: {
    /** The first write of an IRN wins, as on the real IRP: a second is a duplicate. */
    isNew: ITEM_IS_NEW,
    /** Cancelled once, and only a registered document. */
    cancellable: 'attribute_exists(PK) AND attribute_not_exists(cancelledAt)',
  },
} as const;
