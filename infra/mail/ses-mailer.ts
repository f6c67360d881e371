import type { SESv2Client } from '@aws-sdk/client-sesv2';
import type { MailMessage, Mailer } from '../../domain/ports/mailer.ts';
import { awsClientOptions, nameServiceOnError } from '../aws-client.ts';
import type { Config } from '../config.ts';

/**
 * The SESv2 SDK, imported at first use (see sqsSdk in infra/sqs/client.ts): only the functions
 * that e-mail someone (billing documents, console sign-in links) ever load it.
 */
export const sesSdk = () => import('@aws-sdk/client-sesv2');

export async function createSesClient(cfg: Pick<Config, 'region' | 'endpoints' | 'aws'>): Promise<SESv2Client> {
  const { SESv2Client } = await sesSdk();
  const client = new SESv2Client(awsClientOptions(cfg, cfg.endpoints.ses));
  client.middlewareStack.add(nameServiceOnError('SES'), { step: 'initialize', name: 'nameServiceOnError' });
  return client;
}

/**
 * SES message tags: name and value of at most 256 characters of ASCII letters, digits, `_` and
 * `-` (SESv2 API reference, MessageTag). The emulator does not check them, so the adapter does:
 * a tag SES would refuse fails here, under test, not first in AWS.
 */
const TAG = /^[A-Za-z0-9_-]{1,256}$/;

export class MailMessageError extends Error {
  override readonly name = 'MailMessageError';
}

/**
 * The Mailer over Amazon SES (SESv2 SendEmail, Simple content): the subject, a text and an HTML
 * part and the attachments, from the stage's sender (`mailFrom`), through the stage's
 * configuration set when it has one (whose event destination carries bounces and complaints
 * back, tagged with the message's tags). On local and test stages the client points at the
 * SES emulator (SES_ENDPOINT), which keeps every message for the local mailbox.
 */
export class SesMailer implements Mailer {
  constructor(
    private readonly client: Pick<SESv2Client, 'send'>,
    private readonly settings: { readonly from?: string; readonly configurationSet?: string },
  ) {}

  async send(message: MailMessage): Promise<{ readonly messageId: string }> {
    const from = this.settings.from;
    if (!from) throw new MailMessageError('MAIL_FROM is not set: this stage has no sender for e-mail');
    if (message.to.length === 0) throw new MailMessageError('a message needs at least one recipient');
    const tags = Object.entries(message.tags ?? {});
    const badTag = tags.find(([name, value]) => !TAG.test(name) || !TAG.test(value));
    if (badTag) throw new MailMessageError(`message tag ${badTag[0]}=${badTag[1]}: SES takes 1–256 letters, digits, _ and - only`);
    const { SendEmailCommand } = await sesSdk();
    const answer = await this.client.send(
      new SendEmailCommand({
        FromEmailAddress: from,
        Destination: { ToAddresses: [...message.to] },
        ...(message.replyTo ? { ReplyToAddresses: [message.replyTo] } : {}),
        ...(this.settings.configurationSet ? { ConfigurationSetName: this.settings.configurationSet } : {}),
        ...(tags.length ? { EmailTags: tags.map(([Name, Value]) => ({ Name, Value })) } : {}),
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: message.text, Charset: 'UTF-8' }, Html: { Data: message.html, Charset: 'UTF-8' } },
            ...(message.attachments?.length
              ? {
                  Attachments: message.attachments.map((a) => ({
                    FileName: a.fileName,
                    ContentType: a.contentType,
                    RawContent: a.content,
                    ContentDisposition: 'ATTACHMENT' as const,
                    ContentTransferEncoding: 'BASE64' as const,
                  })),
                }
              : {}),
          },
        },
      }),
    );
    if (!answer.MessageId) throw new Error('SES answered SendEmail without a MessageId');
    return { messageId: answer.MessageId };
  }
}
