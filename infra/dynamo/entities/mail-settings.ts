import { ITEM_IS_NEW } from '../items.ts';
import { keys } from '../keys.ts';

/*
 * A group's finance contacts (docs/e-mail.md): the GroupMailSettings item (PK = GROUP#<g>,
 * SK = MAIL_SETTINGS), replaced whole under its version, and one MailAddress item per contact
 * address (PK = MAIL_ADDRESS#<email>, SK = GROUP#<g>) written in the same transaction.
 * DynamoFinanceContactStore takes its conditions from here.
 */
export const mailSettingsEntity = {
  name: 'GroupMailSettings',
  key: keys.mailSettings,
  conditions: {
    /** A group's first settings (version 0 read as none): a racing first write is refused. */
    isNew: ITEM_IS_NEW,
    /** Replaced, or its addresses indexed, only as read (`:v` the version read): a change since wins. */
    versionAt: 'version = :v',
  },
} as const;
