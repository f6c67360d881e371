import { describe, expect, it } from 'vitest';
import { checkWorld } from '../../domain/world/check-world.ts';
import { worldCatalogue } from '../../domain/world/world-catalogue.ts';
import { parseWorldShape } from '../../domain/world/world-schema.ts';
import { buildDemoWorld, DEMO_CREDENTIALS, DEMO_WINDOW_DAYS, UNREGISTERED_DEMO_STATE } from '../../scripts/demo-world.ts';

const TODAY = '2026-11-22';

describe('Function: buildDemoWorld', () => {
  const world = buildDemoWorld(TODAY);
  const doc = parseWorldShape(world);
  const catalogue = worldCatalogue(doc);

  it('is a valid world file on sandbox stages', () => {
    expect(() => checkWorld(doc, { allowPlaintextKeys: true })).not.toThrow();
  });

  it('is refused on other stages because its keys are plaintext', () => {
    expect(() => checkWorld(doc, { allowPlaintextKeys: false })).toThrow(/plaintext/);
  });

  it('is the same document for the same date', () => {
    expect(JSON.stringify(buildDemoWorld(TODAY))).toBe(JSON.stringify(world));
  });

  it('keeps every calendar date the same when it is built a day later', () => {
    const tomorrow = worldCatalogue(parseWorldShape(buildDemoWorld('2026-11-23')));

    // One comparison of every shared date, not one expect per property-day (about 40,000 of them took 30 s on a busy machine).
    const moved: string[] = [];
    let compared = 0;
    for (const [propertyId, days] of tomorrow.days) {
      const before = catalogue.days.get(propertyId)!;
      for (const [date, day] of days) {
        if (!before.has(date)) continue;
        compared++;
        if (JSON.stringify(day) !== JSON.stringify(before.get(date))) moved.push(`${propertyId} ${date}`);
      }
    }
    expect(compared).toBeGreaterThan(catalogue.properties.length * (DEMO_WINDOW_DAYS - 2));
    expect(moved).toEqual([]);
    expect(tomorrow.listings).toEqual(catalogue.listings);
  });

  it('has at least 40 listings across at least 5 states, 2–4 properties each', () => {
    const states = new Set(catalogue.listings.map((l) => l.state));

    expect(catalogue.listings.length).toBeGreaterThanOrEqual(40);
    expect(states.size).toBeGreaterThanOrEqual(5);
    for (const l of catalogue.listings) {
      const n = catalogue.properties.filter((p) => p.listingId === l.id).length;
      expect(n, l.id).toBeGreaterThanOrEqual(2);
      expect(n, l.id).toBeLessThanOrEqual(4);
    }
  });

  it('leaves exactly one state without a supplier GST registration', () => {
    const states = new Set(catalogue.listings.map((l) => l.state));
    const registered = new Set(catalogue.gstRegistrations.map((r) => r.state));

    expect([...states].filter((s) => !registered.has(s))).toEqual([UNREGISTERED_DEMO_STATE]);
  });

  it('has 400 days of inventory and rates for every property, with weekend uplift, stop-sells, minimum stays and sell-outs', () => {
    for (const p of catalogue.properties) {
      const days = catalogue.days.get(p.id)!;
      expect(days.size, p.id).toBe(DEMO_WINDOW_DAYS);
      expect(
        [...days.values()].every((d) => d.inventory && d.rates.EP?.['1']),
        p.id,
      ).toBe(true);
    }
    const all = [...catalogue.days.values()].flatMap((d) => [...d.values()]);
    expect(all.filter((d) => d.inventory!.stopSell).length).toBeGreaterThan(10);
    expect(all.filter((d) => d.inventory!.quantity === 0).length).toBeGreaterThan(10);
    expect(all.filter((d) => d.inventory!.minimumStay >= 3).length).toBeGreaterThan(10);
    const first = catalogue.properties[0]!;
    const days = catalogue.days.get(first.id)!;
    // 2026-11-26 is a Thursday, 2026-11-27 a Friday.
    expect(days.get('2026-11-27')!.rates.EP!['1']!).toBeGreaterThan(days.get('2026-11-26')!.rates.EP!['1']!);
  });

  it('sells on both sides of the 7,500 INR GST slab', () => {
    const epOne = catalogue.properties.map((p) => catalogue.days.get(p.id)!.get(TODAY)!.rates.EP!['1']!);

    expect(epOne.some((r) => r <= 750_000)).toBe(true);
    expect(epOne.some((r) => r > 750_000)).toBe(true);
  });

  it('has two channels with offers of both kinds, three cancellation plans, meals and services on every listing', () => {
    expect(catalogue.channels.map((c) => c.channelId)).toEqual(['ota-web', 'agents-b2b']);
    expect(catalogue.channels.some((c) => c.rateAdjustmentPercent !== 0)).toBe(true);
    for (const c of catalogue.channels) {
      const kinds = new Set(catalogue.offers.filter((o) => o.channelId === c.channelId).map((o) => o.discountType));
      expect(kinds, c.channelId).toEqual(new Set(['PERCENTAGE', 'FLAT']));
    }
    expect(catalogue.offers.some((o) => o.discountType === 'PERCENTAGE' && o.maxDiscount !== null)).toBe(true);
    expect(catalogue.cancellationPlans.map((p) => p.planType)).toEqual(['FLEXIBLE', 'MODERATE', 'NON_REFUNDABLE']);
    expect(catalogue.cancellationPlans.find((p) => p.planType === 'NON_REFUNDABLE')!.discountPercent).toBeGreaterThan(0);
    for (const l of catalogue.listings) {
      expect(
        catalogue.meals.some((m) => m.listingId === l.id),
        l.id,
      ).toBe(true);
      expect(
        catalogue.vas.some((s) => s.listingId === l.id),
        l.id,
      ).toBe(true);
    }
  });

  it('mixes simulator behaviour: mostly immediate, some late, one never, one refusing changes, one unable to modify', () => {
    const sims = catalogue.simulators;
    const count = (pred: (s: (typeof sims)[number]) => boolean) => sims.filter(pred).length;

    expect(count((s) => s.mode === 'CONFIRM_IMMEDIATELY' && !s.refusesChanges && !s.cannotModify)).toBeGreaterThan(sims.length / 2);
    expect(count((s) => s.mode === 'CONFIRM_AFTER' && s.confirmAfterSeconds > 0)).toBeGreaterThanOrEqual(2);
    expect(count((s) => s.mode === 'NEVER_CONFIRM')).toBe(1);
    expect(count((s) => s.refusesChanges)).toBe(1);
    expect(count((s) => s.cannotModify)).toBe(1);
  });

  it('has two partners and three agent groups with different credit positions', () => {
    const groups = doc.tenants.agentGroups;

    expect(doc.tenants.partners).toHaveLength(2);
    expect(groups).toHaveLength(3);
    expect(new Set(groups.map((g) => g.channelId))).toEqual(new Set(['ota-web', 'agents-b2b']));
    expect(groups.map((g) => [g.creditLimit, g.onHold])).toEqual([
      [50_000_000, false],
      [5_000_000, false],
      [20_000_000, true],
    ]);
    for (const g of groups) expect(g.gstin).toMatch(/^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/);
  });

  it('exports demo credentials that match the keys in the document', () => {
    expect(DEMO_CREDENTIALS.filter((c) => c.kind === 'partner')).toHaveLength(2);
    expect(DEMO_CREDENTIALS.filter((c) => c.kind === 'agent-group')).toHaveLength(3);
    for (const c of DEMO_CREDENTIALS) {
      expect(c.key).toMatch(/^pds_demo_[a-z0-9_]{8,}$/);
      expect(c.key.length).toBeGreaterThanOrEqual(16);
      expect(c.signingSecret === null).toBe(c.kind === 'partner');
      expect(doc.keys).toContainEqual(
        expect.objectContaining({ owner: { kind: c.kind, id: c.ownerId }, key: c.key, ...(c.signingSecret ? { signingSecret: c.signingSecret } : {}) }),
      );
    }
  });
});
