import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../infra/config.ts';
import { createSesClient, MailMessageError, SesMailer } from '../../infra/mail/ses-mailer.ts';
import { PdfInvoiceRenderer } from '../../infra/pdf/pdf-invoice-renderer.ts';
import { creditNote } from '../support/invoice-documents.ts';
import { financeAddress, mailbox } from '../support/mailbox.ts';
import { stack, testServices } from '../support/stack.ts';

/** SesMailer over the wire to the SES emulator (aws-ses-v2-local), read back from its mailbox over HTTP. */
const cfg = () => parseConfig(stack().env);
const inbox = () => mailbox(stack().env.SES_ENDPOINT!);

describe('SesMailer', () => {
  it('sends the subject, both parts and a PDF attachment from the stage sender, and the mailbox gives the same bytes back', async () => {
    const to = financeAddress('accounts');
    const pdf = await new PdfInvoiceRenderer().render(creditNote);

    const sent = await testServices().mailer.send({
      to: [to],
      subject: 'Invoice INV-TEST-1 · ₹1,23,456.78 due 15 Dec 2026',
      text: 'Amount due: ₹1,23,456.78\nDue: 15 Dec 2026',
      html: '<p>Amount due: <strong>₹1,23,456.78</strong></p>',
      attachments: [{ fileName: 'INV-TEST-1.pdf', contentType: 'application/pdf', content: pdf }],
      replyTo: 'billing-desk@partner-distribution.local',
      tags: { kind: 'invoice-issued', document: 'INV-TEST-1' },
    });

    const got = await inbox().waitFor(to, /^Invoice INV-TEST-1/);
    expect(got.messageId).toBe(sent.messageId);
    expect(got.from).toBe(cfg().mail.from);
    expect(got.to).toEqual([to]);
    expect(got.replyTo).toEqual(['billing-desk@partner-distribution.local']);
    expect(got.subject).toBe('Invoice INV-TEST-1 · ₹1,23,456.78 due 15 Dec 2026');
    expect(got.text).toBe('Amount due: ₹1,23,456.78\nDue: 15 Dec 2026');
    expect(got.html).toBe('<p>Amount due: <strong>₹1,23,456.78</strong></p>');
    expect(got.attachments).toHaveLength(1);
    expect(got.attachments[0]!.fileName).toBe('INV-TEST-1.pdf');
    expect(got.attachments[0]!.contentType).toBe('application/pdf');
    expect(got.attachments[0]!.content.equals(Buffer.from(pdf))).toBe(true);
  });

  it('lists only the recipient’s own mail', async () => {
    const [a, b] = [financeAddress('a'), financeAddress('b')];
    const mailer = testServices().mailer;
    await mailer.send({ to: [a], subject: 'for a', text: 'a', html: '<p>a</p>' });
    await mailer.send({ to: [b], subject: 'for b', text: 'b', html: '<p>b</p>' });

    await inbox().waitFor(b, 'for b');
    expect((await inbox().forRecipient(a)).map((m) => m.subject)).toEqual(['for a']);
  });

  it('refuses before calling SES what SES would refuse or cannot send: no sender, no recipient, a tag outside its characters', async () => {
    const client = await createSesClient(cfg());
    const message = { to: [financeAddress('x')], subject: 's', text: 't', html: '<p>t</p>' };
    await expect(new SesMailer(client, {}).send(message)).rejects.toThrow(/MAIL_FROM/);
    await expect(new SesMailer(client, cfg().mail).send({ ...message, to: [] })).rejects.toThrow(MailMessageError);
    await expect(new SesMailer(client, cfg().mail).send({ ...message, tags: { document: 'INV/2026/1' } })).rejects.toThrow(/tag document=INV\/2026\/1/);
    expect(await inbox().forRecipient(message.to[0]!)).toEqual([]);
    client.destroy();
  });

  it('names SES on an error from the emulator, and passes its refusal on', async () => {
    const client = await createSesClient({ ...cfg(), endpoints: { ...cfg().endpoints, ses: `${stack().env.SES_ENDPOINT}/no-such-path` } });
    const err = await new SesMailer(client, cfg().mail).send({ to: [financeAddress('y')], subject: 's', text: 't', html: '<p>t</p>' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as { $service?: string }).$service).toBe('SES');
    client.destroy();
  });
});
