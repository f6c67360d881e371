/**
 * The e-mail adapters: outbound e-mail (SESv2, the SES emulator on local and test stages), each
 * group's finance contacts, and the log of what was sent (docs/e-mail.md). Billing, receivables
 * and the console send; the SES events worker flags addresses.
 */
import { DynamoFinanceContactStore } from '../../dynamo/dynamo-finance-contacts.ts';
import { DynamoMailLog } from '../../dynamo/dynamo-mail-log.ts';
import { onFirstCall } from '../../lazy.ts';
import { adapterGroup } from '../core.ts';

export const mailAdapters = adapterGroup({
  area: 'mail',
  makers: (w) => ({
    financeContacts: () => new DynamoFinanceContactStore(w.db(), w.table, w.auditTrail()),
    mailLog: () => new DynamoMailLog(w.db(), w.table, w.auditTrail()),
    // Its SDK loads at the first send.
    mailer: () =>
      onFirstCall(async () => {
        const { SesMailer, createSesClient } = await import('../../mail/ses-mailer.ts');
        return new SesMailer(await createSesClient(w.cfg), w.cfg.mail);
      }),
  }),
});
