/**
 * Outbound e-mail to people (finance contacts, console sign-in links). Amazon SES (SESv2) in
 * AWS; on local and test stages an SES-compatible emulator whose mailbox tests read over HTTP.
 */
export interface MailAttachment {
  readonly fileName: string;
  readonly contentType: string;
  readonly content: Uint8Array;
}

export interface MailMessage {
  readonly to: readonly string[];
  readonly subject: string;
  /** The plain-text part; every message has one (some finance mailboxes read nothing else). */
  readonly text: string;
  readonly html: string;
  readonly attachments?: readonly MailAttachment[];
  /** Reply-To, when replies should not go to the stage's sender. */
  readonly replyTo?: string;
  /** SES message tags: the kind of message and the record it is about, carried back on bounce and complaint events. */
  readonly tags?: Readonly<Record<string, string>>;
}

export interface Mailer {
  /**
   * Sends one message from the stage's sender and returns the provider's message id. Throws
   * when the provider refuses it; recording each send once (so a retried worker does not send
   * twice) is the caller's, which claims the send before calling.
   */
  send(message: MailMessage): Promise<{ readonly messageId: string }>;
}
