import type { AuditDraft } from '../audit/audit-event.ts';

/** One message to one contact about one record: `what` names the message (`invoice-issued:<invoiceId>`). */
export interface MailSendKey {
  readonly agentGroupId: string;
  readonly what: string;
  readonly contactId: string;
}

/**
 * The record of each e-mail sent, one per message and contact (docs/e-mail.md "Sending each
 * message once"). A sender claims the send before calling the Mailer, so a retried worker, or two
 * at once, never send the same message twice.
 */
export interface MailLog {
  /** Claims the send; false when it is claimed or sent already. */
  claim(key: MailSendKey, at: string): Promise<boolean>;
  /** Whether the send is claimed or sent already (what makes `claim` answer false), read without claiming. */
  claimed(key: MailSendKey): Promise<boolean>;
  /** Marks a claimed send sent, with the provider's message id, and records `audit` with it. */
  sent(key: MailSendKey, messageId: string, at: string, audit: AuditDraft): Promise<void>;
  /** Gives a claim back after the Mailer refused the message (nothing was sent), so a retry sends it. */
  release(key: MailSendKey): Promise<void>;
}
