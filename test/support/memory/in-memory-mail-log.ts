import type { AuditDraft } from '../../../domain/audit/audit-event.ts';
import type { MailLog, MailSendKey } from '../../../domain/ports/mail-log.ts';
import type { MailMessage, Mailer } from '../../../domain/ports/mailer.ts';

const id = (k: MailSendKey) => `${k.agentGroupId}|${k.what}|${k.contactId}`;

/** The mail log in memory for rule tests in the unit tier; `events` holds each sent message's audit draft. */
export class InMemoryMailLog implements MailLog {
  readonly sends = new Map<string, { status: 'CLAIMED' | 'SENT'; messageId?: string }>();
  readonly events: AuditDraft[] = [];

  async claim(k: MailSendKey): Promise<boolean> {
    if (this.sends.has(id(k))) return false;
    this.sends.set(id(k), { status: 'CLAIMED' });
    return true;
  }

  async claimed(k: MailSendKey): Promise<boolean> {
    return this.sends.has(id(k));
  }

  async sent(k: MailSendKey, messageId: string, _at: string, audit: AuditDraft): Promise<void> {
    if (this.sends.get(id(k))?.status !== 'CLAIMED') throw new Error(`send ${id(k)} is not claimed`);
    this.sends.set(id(k), { status: 'SENT', messageId });
    this.events.push(audit);
  }

  async release(k: MailSendKey): Promise<void> {
    if (this.sends.get(id(k))?.status === 'CLAIMED') this.sends.delete(id(k));
  }
}

/** A Mailer that keeps what it was given, and refuses the messages `refuse` picks (as SES refuses: nothing sent). */
export class RecordingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  constructor(private readonly refuse: (m: MailMessage) => boolean = () => false) {}

  async send(message: MailMessage): Promise<{ readonly messageId: string }> {
    await new Promise((r) => setTimeout(r, 1));
    if (this.refuse(message)) throw Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' });
    this.sent.push(message);
    return { messageId: `msg-${this.sent.length}` };
  }
}
