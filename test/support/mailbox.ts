import { randomUUID } from 'node:crypto';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { addContact, type OptionalDocument } from '../../domain/mail/finance-contacts.ts';
import { advanceTestClock, createTestClock } from '../../domain/test-clocks/manage-test-clocks.ts';
import { dueWorkOn } from '../../infra/container.ts';
import { TEST_OPERATOR } from './audit-origin.ts';
import { bookStay, type InvoiceWorld } from './invoice-world.ts';
import { pollUntil } from './poll.ts';
import { newAgentGroup, principalOf, stack, testServices } from './stack.ts';

/** One message the SES emulator kept, as a test reads it: parts decoded, attachments as bytes. */
export interface ReceivedMail {
  readonly messageId: string;
  readonly from: string;
  readonly to: readonly string[];
  readonly replyTo: readonly string[];
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly attachments: readonly { readonly fileName: string; readonly contentType: string; readonly content: Buffer }[];
  /** When the emulator received it (epoch seconds, its own clock). */
  readonly at: number;
}

/** The emulator's /store answer (aws-ses-v2-local dist/store.d.ts, Email), the parts a test reads. */
interface StoredEmail {
  readonly messageId: string;
  readonly from: string;
  readonly replyTo: readonly string[];
  readonly destination: { readonly to: readonly string[]; readonly cc: readonly string[]; readonly bcc: readonly string[] };
  readonly subject: string;
  readonly body: { readonly html?: string; readonly text?: string };
  readonly attachments: readonly { readonly content: string; readonly contentType: string; readonly filename?: string }[];
  readonly at: number;
}

/** The bare address of `Name <address>` or `address`, lower-cased: how recipients are matched. */
const addressOf = (s: string): string => (/<([^>]+)>/.exec(s)?.[1] ?? s).trim().toLowerCase();

const received = (e: StoredEmail): ReceivedMail => ({
  messageId: e.messageId,
  from: e.from,
  to: [...e.destination.to, ...e.destination.cc, ...e.destination.bcc],
  replyTo: e.replyTo,
  subject: e.subject,
  text: e.body.text ?? '',
  html: e.body.html ?? '',
  attachments: e.attachments.map((a) => ({ fileName: a.filename ?? '', contentType: a.contentType, content: Buffer.from(a.content, 'base64') })),
  at: e.at,
});

/**
 * The local mailbox (the SES emulator the tiers' setup and `npm start` run: SES_ENDPOINT, or
 * MAILBOX_URL in .local/stack.env), read over HTTP as a person reading mail would: what arrived
 * for an address. Tests mail addresses of their own, so the emulator's one shared store never
 * mixes two tests' mail.
 */
export function mailbox(url: string) {
  const all = async (): Promise<ReceivedMail[]> => {
    const res = await fetch(new URL('/store', url));
    if (!res.ok) throw new Error(`mailbox ${url}: GET /store answered ${res.status}`);
    const body = (await res.json()) as { emails: StoredEmail[] };
    return body.emails.map(received);
  };
  const forRecipient = async (to: string): Promise<ReceivedMail[]> => (await all()).filter((m) => m.to.some((r) => addressOf(r) === addressOf(to)));
  return {
    /** Every message sent to `to` (To, Cc or Bcc), oldest first. */
    forRecipient,
    /**
     * The message to `to` whose subject matches, once it has arrived: read again a bounded number of
     * times (pollUntil), so a slow worker waits longer between reads instead of failing at an instant.
     */
    async waitFor(to: string, subject: string | RegExp, opts?: { tries?: number; everyMs?: number }): Promise<ReceivedMail> {
      const matches = (s: string) => (typeof subject === 'string' ? s === subject : subject.test(s));
      return pollUntil(`mail to ${to} with subject ${String(subject)}`, async () => (await forRecipient(to)).find((m) => matches(m.subject)), opts);
    },
  };
}

export type Mailbox = ReturnType<typeof mailbox>;

/** A finance contact's address no other test uses: the mailbox is shared by every file of a run. */
export const financeAddress = (who: string): string => `${who}-${randomUUID().slice(0, 8)}@finance.example.in`;

/** Noon India time of a day: a test clock's instant for "that day". */
export const noonIst = (day: string): Date => new Date(`${day}T12:00:00+05:30`);

/**
 * A group on a sandbox test clock with finance contacts (fresh addresses, documents as given), one stay booked in the
 * clock's first month, and the day its monthly run bills that month (the 2nd of the next): what the reminder and statement
 * tests each start from. `advance` moves the clock to noon India time of a day, running that day's work as
 * POST /v1/test-clocks/{id}/advance does (dueWorkOn).
 */
export async function clockedMailGroup(
  world: InvoiceWorld,
  contacts: readonly { readonly who: string; readonly name?: string; readonly documents?: readonly OptionalDocument[] }[],
) {
  const svc = testServices();
  const g = await newAgentGroup({ channelId: world.channelId, paymentTermsDays: 15, overdueHoldDays: 10 });
  const addresses = contacts.map((c) => financeAddress(c.who));
  const cdeps = { financeContacts: svc.financeContacts, clock: svc.clock, ids: svc.ids };
  for (const [n, c] of contacts.entries())
    await addContact(
      cdeps,
      g.agentGroupId,
      { email: addresses[n]!, ...(c.name ? { name: c.name } : {}), ...(c.documents ? { documents: [...c.documents] } : {}) },
      TEST_OPERATOR,
    );
  const deps = { testClocks: svc.testClocks, realClock: svc.realClock, ids: svc.ids, dueWork: dueWorkOn(svc) };
  const clock = await createTestClock(deps, principalOf(g), undefined);
  await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
  const start = clock.setTo.slice(0, 10);
  return {
    svc,
    g,
    addresses,
    start,
    billDay: `${addDays(`${start.slice(0, 7)}-01`, 32).slice(0, 8)}02`,
    advance: (day: string) => advanceTestClock(deps, principalOf(g), clock.id, noonIst(day)),
    inbox: mailbox(stack().env.SES_ENDPOINT!),
  };
}
