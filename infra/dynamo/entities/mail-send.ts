import { ITEM_IS_NEW } from '../items.ts';
import { keys } from '../keys.ts';

/* The MailSend item: one send under its group (PK = GROUP#<g>, SK = MAIL#<what>#<contactId>), CLAIMED, then SENT. DynamoMailLog takes its conditions from here. */
export const mailSendEntity = {
  name: 'MailSend',
  key: keys.mailSend,
  /** Placeholders: `#s` → status, `:claimed` → 'CLAIMED'. */
  conditions: {
    /** One send per key: of two runs claiming the same mail, one sends it. */
    isNew: ITEM_IS_NEW,
    /** Marked SENT, or given back, only while still CLAIMED: a sent mail's record is never released. */
    claimed: '#s = :claimed',
  },
} as const;
