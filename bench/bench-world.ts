import type { AdminDeps } from '../domain/admin.ts';
import type { AgentGroupPrincipal } from '../domain/principal.ts';
import type { WorldInput } from '../domain/world/world-schema.ts';
import { addDays } from '../domain/catalogue/calendar.ts';
import { operatorOrigin } from '../domain/audit/audit-event.ts';
import { cutoffOf } from '../domain/invoicing/billing-period.ts';
import type { BillingRunResult } from '../domain/invoicing/invoice.ts';
import { withBillingLock } from '../domain/invoicing/request-billing-run.ts';
import { runBilling, type BillingDeps } from '../domain/invoicing/run-billing.ts';
import { indiaToday } from '../domain/reads/date-window.ts';
import type { AgentGroup } from '../domain/tenants.ts';
import { resetDynamoCalls } from '../infra/dynamo/client.ts';

/**
 * A catalogue sized for the benchmarks: `listings` listings with two properties each on
 * one channel, `days` days of inventory and rates (four meal plans × up to four adults,
 * so 16 rate rows per property-day) from `from`. `idPrefix` keeps a second world's listings
 * apart from the first's (ids are global, not per channel); `units` (default 3) is each
 * property's quantity and nightly inventory, raised by the booking bench so its bookings
 * never sell a night out.
 */
export function benchWorld(opts: { channelId: string; listings: number; from: string; days: number; idPrefix?: string; units?: number }): WorldInput {
  const units = opts.units ?? 3;
  const plan = 'bench-flex';
  const to = addDays(opts.from, opts.days - 1);
  const listings = Array.from({ length: opts.listings }, (_, i) => {
    const id = `${opts.idPrefix ?? 'bench-l'}${String(i).padStart(5, '0')}`;
    return {
      id,
      title: `Bench Villa ${i}`,
      type: 'Villa',
      brand: 'Bench Stays',
      locality: 'Candolim',
      city: 'Goa',
      state: 'Goa',
      addressLine: `${i} Bench Road`,
      latitude: 15.5 + (i % 100) / 1000,
      longitude: 73.7 + (i % 97) / 1000,
      maxAdults: 8,
      maxChildren: 4,
      basePrice: 12_000,
      amenities: ['Pool', 'Wi-Fi'],
      tags: ['beach'],
      coverPicture: 'https://images.example.com/cover.jpg',
      channelIds: [opts.channelId],
      cancellationPlanIds: [plan],
      defaultCancellationPlanId: plan,
      properties: [1, 2].map((n) => ({
        id: `${id}-p${n}`,
        name: `Cottage ${n}`,
        type: 'Cottage',
        bedrooms: 2,
        bathrooms: 2,
        numberOfBeds: 2,
        maxAdults: 5,
        maxChildren: 2,
        applicableAdult: 4,
        applicableChild: 1,
        extraAdultRate: 1_500,
        extraChildRate: 800,
        quantity: units,
        imageUrl: 'https://images.example.com/cottage.jpg',
        basePrice: 6_000,
      })),
    };
  });
  const properties = listings.flatMap((l) => l.properties);
  const plans = ['EP', 'CP', 'MAP', 'AP'] as const;
  return {
    version: 1,
    channels: [{ channelId: opts.channelId, name: 'Bench channel' }],
    catalogue: {
      cancellationPlans: [
        { planId: plan, name: 'Flexible', planType: 'FLEXIBLE', schedule: [{ daysBeforeCheckIn: 3, refundPercentage: 100, label: 'Full refund' }] },
      ],
      listings,
      inventory: properties.map((p) => ({ propertyId: p.id, from: opts.from, to, quantity: units })),
      rates: properties.flatMap((p) =>
        plans.map((mealPlan, k) => ({
          propertyId: p.id,
          from: opts.from,
          to,
          mealPlan,
          adults: { '1': 5_000 + k * 500, '2': 6_000 + k * 800, '3': 7_000 + k * 1_100, '4': 8_000 + k * 1_400 },
        })),
      ),
    },
  };
}

/** The benches' agent group profile (Maharashtra, monthly on the 1st): only the ids and the limit differ between cases. */
export const benchGroupInput = (agentGroupId: string, partnerId: string, channelId: string, creditLimit: number) => ({
  agentGroupId,
  partnerId,
  name: 'Bench Agents',
  channelId,
  creditLimit,
  onHold: false,
  distributionEnabled: true,
  billingCycle: 'MONTHLY' as const,
  billingAnchorDay: 1,
  gstin: '27AAPFU0939F1ZV',
  legalName: 'Bench Agents Pvt Ltd',
  address: { line1: '1 Bench Road', city: 'Mumbai', state: 'Maharashtra', postalCode: '400001', country: 'IN' },
});

/** A bench agent group (named by its id) with an API key and the principal its key stands for, for benches calling the domain directly. */
export async function benchAgentGroup(deps: AdminDeps, agentGroupId: string, partnerId: string, channelId: string, creditLimit: number) {
  const { createAgentGroup, issueKey } = await import('../domain/admin.ts');
  await createAgentGroup(deps, { ...benchGroupInput(agentGroupId, partnerId, channelId, creditLimit), name: agentGroupId });
  // A generous override so the limiter never refuses; it still spends a token each request.
  const { apiKey } = await issueKey(deps, { owner: { kind: 'agent-group', id: agentGroupId }, rateLimit: { perMinute: 100_000, burst: 10_000 } });
  const principal: AgentGroupPrincipal = { kind: 'agent-group', agentGroupId, partnerId, channelId, keyId: 'bench', keyPrefix: 'bench' };
  return { agentGroupId, apiKey, principal };
}

/**
 * An operator's billing run of one group over the 30 days up to today, timed as the invoicing
 * and billing-scale benches report it: the DynamoDB call counters start at zero with the run,
 * so after it they hold the run's calls.
 */
export function benchBillingRun(deps: BillingDeps): (group: AgentGroup) => Promise<{ readonly result: BillingRunResult; readonly ms: number }> {
  const today = indiaToday(new Date());
  const request = { period: { from: addDays(today, -30), to: today }, cutoff: cutoffOf(today), trigger: 'ADMIN' as const };
  return async (group) => {
    resetDynamoCalls();
    const t0 = performance.now();
    const result = await withBillingLock(deps, group.agentGroupId, () => runBilling(deps, group, request, operatorOrigin('bench', 'seed')));
    return { result, ms: performance.now() - t0 };
  };
}
