import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { pdfKeyOf } from '../../domain/invoicing/run-billing.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { bookStay, seedInvoiceWorld, type InvoiceWorld } from '../support/invoice-world.ts';
import { pollUntil } from '../support/poll.ts';
import { basicAuth, call, newAgentGroup, stack, testServices, type GroupFixture } from '../support/stack.ts';

const period = () => ({ from: addDays(indiaToday(new Date()), -30), to: indiaToday(new Date()) });
const bill = async (g: GroupFixture): Promise<string[]> => {
  const res = await call<{ invoiceIds: string[] }>('POST', '/v1/invoices', { key: g.apiKey, body: period() });
  expect(res.status).toBe(200);
  return res.body.invoiceIds;
};

/** GET …/pdf over HTTP: the status, type and bytes a partner gets. */
async function getPdf(g: GroupFixture, id: string) {
  const res = await fetch(`${stack().baseUrl}/v1/invoices/${id}/pdf`, { headers: { authorization: basicAuth(g.apiKey) } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The stored object once there is one (the worker's, or an on-demand GET's), read from S3 directly. */
const storedPdf = (g: GroupFixture, id: string) =>
  pollUntil(`PDF of ${id} in S3`, async () => {
    const bytes = await testServices().documents.get(pdfKeyOf({ agentGroupId: g.agentGroupId, id }));
    return bytes && Buffer.from(bytes);
  });

/** The invoice once its PDF is recorded on it (the step that also lets it leave the open index). */
const recorded = (g: GroupFixture, id: string) =>
  pollUntil(`pdfKey of ${id}`, async () => (await testServices().invoices.get(g.agentGroupId, id))?.pdfKey ?? undefined);

let world: InvoiceWorld;
beforeAll(async () => {
  world = await seedInvoiceWorld();
}, 120_000);

describe('PDFs rendered off the request path by the PDF worker', () => {
  it('stores the PDF of an invoice POST /v1/invoices issued, without any GET, and GET …/pdf serves those bytes', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-01', '2027-03-03');
    const [id] = await bill(g);

    // No GET …/pdf has been made: an object in S3 can only be the worker's.
    const stored = await storedPdf(g, id!);
    expect(stored.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await recorded(g, id!)).toBe(pdfKeyOf({ agentGroupId: g.agentGroupId, id: id! }));

    const after = await getPdf(g, id!);
    expect(after).toMatchObject({ status: 200, type: 'application/pdf' });
    expect(after.bytes.equals(stored)).toBe(true);
  }, 120_000);

  it('serves GET …/pdf right after the run, before or while the worker stores it, with the bytes it ends up storing', async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    await bookStay(g, world.registered, '2027-03-06', '2027-03-07');
    const [id] = await bill(g);

    const before = await getPdf(g, id!);
    expect(before).toMatchObject({ status: 200, type: 'application/pdf' });
    expect(before.bytes.subarray(0, 5).toString()).toBe('%PDF-');

    await recorded(g, id!);
    expect((await storedPdf(g, id!)).equals(before.bytes)).toBe(true);
    expect((await getPdf(g, id!)).bytes.equals(before.bytes)).toBe(true);
  }, 120_000);

  it('prints the invoice and credit note of a group not registered for GST (created without a GSTIN): the worker stores them and GET …/pdf answers 200, never 500', async () => {
    const g = await newAgentGroup({ channelId: world.channelId, gstin: null });
    const bookingId = await bookStay(g, world.registered, '2027-03-10', '2027-03-11');
    const [id] = await bill(g);
    expect(await testServices().invoices.get(g.agentGroupId, id!)).toMatchObject({ status: 'ISSUED', billToGstin: null, lastError: null });

    const stored = await storedPdf(g, id!);
    await recorded(g, id!);
    const served = await getPdf(g, id!);
    expect(served).toMatchObject({ status: 200, type: 'application/pdf' });
    expect(served.bytes.equals(stored)).toBe(true);

    expect((await call('POST', `/v1/bookings/${bookingId}/cancel`, { key: g.apiKey })).status).toBe(200);
    const [noteId] = await bill(g);
    const note = await storedPdf(g, noteId!);
    await recorded(g, noteId!);
    expect(await getPdf(g, noteId!)).toMatchObject({ status: 200, type: 'application/pdf' });
    expect((await getPdf(g, noteId!)).bytes.equals(note)).toBe(true);
  }, 120_000);

  it("stores a credit note's PDF too (a cancelled invoiced booking)", async () => {
    const g = await newAgentGroup({ channelId: world.channelId });
    const bookingId = await bookStay(g, world.registered, '2027-03-08', '2027-03-09');
    await bill(g);
    const cancelled = await call('POST', `/v1/bookings/${bookingId}/cancel`, { key: g.apiKey });
    expect(cancelled.status).toBe(200);

    const [noteId] = await bill(g);
    expect((await testServices().invoices.get(g.agentGroupId, noteId!))?.creditNoteFor).toBeTruthy();
    const stored = await storedPdf(g, noteId!);
    await recorded(g, noteId!);
    expect((await getPdf(g, noteId!)).bytes.equals(stored)).toBe(true);
  }, 120_000);
});
