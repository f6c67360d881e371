import { describe, expect, it } from 'vitest';
import type { PayLink } from '../../domain/invoicing/invoice.ts';
import { clearEndedLink } from '../../domain/receivables/pay-links.ts';
import { InMemoryPayLinkStore } from '../support/memory/in-memory-pay-link-store.ts';
import { RecordedPayLinkAsks } from '../support/memory/recorded-pay-link-asks.ts';

const G = 'grp-ended';
const INV = '5d1c0f7e-2b4a-4c8e-9f10-6a7b8c9d0e1f';
const link = (n: number): PayLink => ({
  linkId: `plink_Ended${n}`,
  url: `https://rzp.io/i/e${n}`,
  amount: 1_000_000,
  expiresAt: '2027-03-28T00:00:00.000Z',
  seq: n,
});
const clock = { now: () => new Date('2026-11-28T10:00:00Z') };

describe('a pay link the gateway reports expired or cancelled', () => {
  it('is cleared from its invoice at once while it is the stored one, and asks for the next link', async () => {
    const payLinks = new InMemoryPayLinkStore();
    const payLinkRefreshes = new RecordedPayLinkAsks();
    payLinks.hold(G, INV, link(1));
    expect(await clearEndedLink({ payLinks, clock, payLinkRefreshes }, 'plink_Ended1')).toEqual({ outcome: 'CLEARED', agentGroupId: G, invoiceId: INV });
    expect(payLinks.payLinkOf(G, INV)).toBeNull();
    expect(payLinkRefreshes.asked).toEqual([G]);
    // Announced again (a redelivery): nothing more to clear, nothing more to ask.
    expect(await clearEndedLink({ payLinks, clock, payLinkRefreshes }, 'plink_Ended1')).toMatchObject({ outcome: 'STALE', invoiceId: INV });
    expect(payLinkRefreshes.asked).toEqual([G]);
  });

  it('moves nothing when the invoice already holds another link (one we replaced ourselves, whose cancel announces itself too)', async () => {
    const payLinks = new InMemoryPayLinkStore();
    payLinks.hold(G, INV, link(1));
    expect(await payLinks.setPayLink(G, INV, link(2), 'plink_Ended1', clock.now().toISOString())).toBe(true);
    expect(await clearEndedLink({ payLinks, clock, payLinkRefreshes: new RecordedPayLinkAsks() }, 'plink_Ended1')).toMatchObject({
      outcome: 'STALE',
      invoiceId: INV,
    });
    expect(payLinks.payLinkOf(G, INV)).toEqual(link(2));
  });

  it('is UNKNOWN when we never made it, and leaves a cancelled invoice as it is', async () => {
    const payLinks = new InMemoryPayLinkStore();
    expect(await clearEndedLink({ payLinks, clock, payLinkRefreshes: new RecordedPayLinkAsks() }, 'plink_Nobody')).toEqual({ outcome: 'UNKNOWN' });
    payLinks.hold(G, INV, link(3), 'CANCELLED');
    expect(await clearEndedLink({ payLinks, clock, payLinkRefreshes: new RecordedPayLinkAsks() }, 'plink_Ended3')).toMatchObject({ outcome: 'STALE' });
    expect(payLinks.payLinkOf(G, INV)).toEqual(link(3));
  });

  it('raced by a refresh replacing it: exactly one of them writes, and the replacement is never cleared', async () => {
    for (let i = 0; i < 20; i++) {
      const payLinks = new InMemoryPayLinkStore();
      payLinks.hold(G, INV, link(1));
      const [ended, replaced] = await Promise.all([
        clearEndedLink({ payLinks, clock, payLinkRefreshes: new RecordedPayLinkAsks() }, 'plink_Ended1'),
        new Promise((r) => setTimeout(r, Math.random() * 2)).then(() => payLinks.setPayLink(G, INV, link(2), 'plink_Ended1', clock.now().toISOString())),
      ]);
      expect([ended.outcome === 'CLEARED', replaced]).toContain(true);
      expect(ended.outcome === 'CLEARED' && replaced).toBe(false);
      expect(payLinks.payLinkOf(G, INV)).toEqual(replaced ? link(2) : null);
    }
  });
});
