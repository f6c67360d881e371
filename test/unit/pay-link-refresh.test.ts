import { describe, expect, it } from 'vitest';
import { RecordedPayLinkAsks } from '../support/memory/recorded-pay-link-asks.ts';
import type { Invoice, PayLink } from '../../domain/invoicing/invoice.ts';
import { clearEndedLink, refreshPayLink, type PayLinkDeps } from '../../domain/receivables/pay-links.ts';
import { GatewayRejectedError, type PaymentLink, type PaymentLinkRequest } from '../../domain/ports/payment-gateway.ts';

const G = 'grp-links';
const ID = '0b6f3a52-7c1e-4d0e-9a57-3f2b1c4d5e6f';
/** A few milliseconds, different each time: the racing refreshes interleave at every port call. */
const jitter = () => new Promise((r) => setTimeout(r, Math.random() * 4));

/**
 * Razorpay's links as the adapter answers them: a reference found again (a retry, or a racing create Razorpay refused as a duplicate
 * reference) is answered as it stands, whatever its status; another amount refused.
 */
function gateway() {
  const links: (PaymentLink & { status: string })[] = [];
  const port: PayLinkDeps['gateway'] = {
    async createPaymentLink(r: PaymentLinkRequest) {
      await jitter();
      const found = links.find((l) => l.referenceId === r.referenceId);
      if (found && found.amount !== r.amount) throw new GatewayRejectedError('AMOUNT_MISMATCH', `${found.linkId} is for ${found.amount}`, 200);
      if (found) return { ...found };
      const link = {
        linkId: `plink_${links.length + 1}`,
        shortUrl: `https://rzp.io/i/${links.length + 1}`,
        referenceId: r.referenceId,
        amount: r.amount,
        status: 'created',
        orderId: null,
      };
      links.push(link);
      return { ...link };
    },
    async cancelPaymentLink(linkId: string) {
      await jitter();
      const link = links.find((l) => l.linkId === linkId)!;
      if (link.status === 'created') link.status = 'cancelled';
      return { ...link };
    },
  };
  return { links, port };
}

/** One issued invoice of ₹10,000 with its first link; `setPayLink` writes only while the stored link is the one replaced, as DynamoDB's condition does. */
function world() {
  const gw = gateway();
  const first: PayLink = { linkId: 'plink_0', url: 'https://rzp.io/i/0', amount: 1_000_000, expiresAt: '2027-03-28T00:00:00.000Z', seq: 1 };
  gw.links.push({ linkId: first.linkId, shortUrl: first.url, referenceId: `${ID}/L1`, amount: first.amount, status: 'created', orderId: null });
  let invoice = {
    id: ID,
    agentGroupId: G,
    status: 'ISSUED',
    total: 1_000_000,
    amountPaid: 0,
    creditedAmount: 0,
    invoiceNumber: 'INV/2026/0001',
    periodFrom: '2026-11-01',
    periodTo: '2026-11-30',
    payLink: first,
  } as unknown as Invoice;
  const deps: PayLinkDeps = {
    gateway: gw.port,
    clock: { now: () => new Date('2026-11-28T10:00:00Z') },
    invoices: { get: async () => (await jitter(), structuredClone(invoice)) },
    payLinks: {
      async setPayLink(_g, _id, link, replaces) {
        await jitter();
        if ((invoice.payLink?.linkId ?? null) !== replaces) return false;
        invoice = { ...invoice, payLink: link };
        return true;
      },
    },
  };
  return {
    deps,
    links: gw.links,
    pay: (paise: number) => (invoice = { ...invoice, amountPaid: (invoice.amountPaid ?? 0) + paise }),
    stored: () => invoice.payLink,
  };
}

describe('a pay link refreshed from several places at once', () => {
  it('ten refreshes after one payment leave one payable link, the stored one, for the amount due', async () => {
    for (let n = 0; n < 20; n++) {
      const w = world();
      w.pay(400_000);
      await Promise.all(Array.from({ length: 10 }, () => refreshPayLink(w.deps, G, ID)));
      const payable = w.links.filter((l) => l.status === 'created');
      expect(payable.map((l) => [l.linkId, l.amount])).toEqual([[w.stored()!.linkId, 600_000]]);
    }
  });

  it('two payments racing, each followed by its refreshes, leave one payable link for what is owed after both', async () => {
    for (let n = 0; n < 20; n++) {
      const w = world();
      w.pay(400_000);
      const early = Array.from({ length: 5 }, () => refreshPayLink(w.deps, G, ID));
      await jitter();
      w.pay(300_000);
      const late = Array.from({ length: 5 }, () => refreshPayLink(w.deps, G, ID));
      await Promise.all([...early, ...late]);
      const payable = w.links.filter((l) => l.status === 'created');
      expect(payable.map((l) => [l.linkId, l.amount])).toEqual([[w.stored()!.linkId, 300_000]]);
    }
  });

  it('the last payment settling it leaves no payable link', async () => {
    const w = world();
    w.pay(400_000);
    const early = Array.from({ length: 5 }, () => refreshPayLink(w.deps, G, ID));
    w.pay(600_000);
    await Promise.all([...early, ...Array.from({ length: 5 }, () => refreshPayLink(w.deps, G, ID))]);
    expect(w.links.filter((l) => l.status === 'created')).toEqual([]);
    expect(w.stored()).toBeNull();
  });

  it('a stored link the gateway answers cancelled or expired is replaced even for the amount due; otherwise kept', async () => {
    const w = world();
    const first = w.stored()!;
    w.links.find((l) => l.linkId === first.linkId)!.status = 'cancelled';
    expect(await refreshPayLink(w.deps, G, ID)).toBe('KEPT');
    expect(await refreshPayLink(w.deps, G, ID, new Set([first.linkId]))).toBe('REPLACED');
    expect(w.stored()).toMatchObject({ amount: 1_000_000, seq: 2 });
    expect(w.links.filter((l) => l.status === 'created').map((l) => l.linkId)).toEqual([w.stored()!.linkId]);
  });

  it('a link cleared when the gateway reported it ended is followed by one made past every spent reference, whatever the amounts', async () => {
    const w = world();
    const payLinks = { setPayLink: w.deps.payLinks.setPayLink, payLinkInvoice: async () => ({ agentGroupId: G, invoiceId: ID }) };
    for (let ended = 1; ended <= 5; ended++) {
      // Each link ends at Razorpay (cancelled on the dashboard) and its event clears it; a payment in between changes the amount.
      const stored = w.stored()!;
      w.links.find((l) => l.linkId === stored.linkId)!.status = 'cancelled';
      expect((await clearEndedLink({ payLinks, clock: w.deps.clock, payLinkRefreshes: new RecordedPayLinkAsks() }, stored.linkId)).outcome).toBe('CLEARED');
      expect(w.stored()).toBeNull();
      if (ended === 3) w.pay(100_000);
      expect(await refreshPayLink(w.deps, G, ID)).toBe('MADE');
      expect(w.stored()).toMatchObject({ seq: ended + 1, amount: ended >= 3 ? 900_000 : 1_000_000 });
    }
    expect(new Set(w.links.map((l) => l.referenceId)).size).toBe(w.links.length);
    expect(w.links.filter((l) => l.status === 'created').map((l) => l.linkId)).toEqual([w.stored()!.linkId]);
  });
});
