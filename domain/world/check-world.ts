import { validateAgentGroup, validatePartner, validateRateLimit } from '../admin.ts';
import { ACCEPTABLE_KEY_PATTERN } from '../api-key.ts';
import { ValidationError } from '../errors.ts';
import { GSTIN_PATTERN } from '../tenants.ts';
import { daysBetween } from '../catalogue/calendar.ts';
import { MEAL_PLANS } from '../catalogue/day.ts';
import type { WorldDocument } from './world-schema.ts';
import { WorldValidationError, type WorldIssue } from './world-validation-error.ts';

/** A range may cover at most this many days; a longer one is almost certainly a typo in a year. */
export const MAX_RANGE_DAYS = 731;

export interface WorldCheckOptions {
  /** Plaintext keys and signing secrets in the file: local and test stages only. */
  readonly allowPlaintextKeys: boolean;
}

/** Ids the file refers to without defining, found already stored. */
export interface KnownIds {
  readonly channels: ReadonlySet<string>;
  readonly partners: ReadonlySet<string>;
  readonly agentGroups: ReadonlySet<string>;
  readonly cancellationPlans: ReadonlySet<string>;
  /** Stored properties that inventory or rates name without the document defining them (syncs). */
  readonly properties?: ReadonlyMap<string, { readonly quantity: number; readonly applicableAdult: number; readonly maxAdults: number }>;
}

export const NOTHING_KNOWN: KnownIds = { channels: new Set(), partners: new Set(), agentGroups: new Set(), cancellationPlans: new Set() };

/** Ids the document uses but does not define: the caller looks these up in the store. */
export function externalIds(doc: WorldDocument): { channels: string[]; partners: string[]; agentGroups: string[]; cancellationPlans: string[] } {
  const channels = new Set(doc.channels.map((c) => c.channelId));
  const partners = new Set(doc.tenants.partners.map((p) => p.partnerId));
  const groups = new Set(doc.tenants.agentGroups.map((g) => g.agentGroupId));
  const plans = new Set(doc.catalogue.cancellationPlans.map((p) => p.planId));
  const missing = (used: Iterable<string>, defined: Set<string>) => [...new Set([...used].filter((id) => !defined.has(id)))];
  return {
    channels: missing(
      [
        ...doc.tenants.partners.map((p) => p.channelId),
        ...doc.tenants.agentGroups.map((g) => g.channelId),
        ...doc.catalogue.listings.flatMap((l) => l.channelIds),
        ...doc.catalogue.offers.map((o) => o.channelId),
      ],
      channels,
    ),
    partners: missing(
      [...doc.tenants.agentGroups.map((g) => g.partnerId), ...doc.keys.filter((k) => k.owner.kind === 'partner').map((k) => k.owner.id)],
      partners,
    ),
    agentGroups: missing(
      doc.keys.filter((k) => k.owner.kind === 'agent-group').map((k) => k.owner.id),
      groups,
    ),
    cancellationPlans: missing(
      doc.catalogue.listings.flatMap((l) => l.cancellationPlanIds),
      plans,
    ),
  };
}

/**
 * Every rule that spans more than one field: references between entities, uniqueness,
 * ordering, the plaintext-key rule and the tenant validators of the admin use cases.
 * Throws one WorldValidationError listing every problem found.
 */
export function checkWorld(doc: WorldDocument, opts: WorldCheckOptions, known: KnownIds = NOTHING_KNOWN): void {
  const issues: WorldIssue[] = [];
  const fail = (path: string, message: string) => issues.push({ path, message });
  const unique = <T>(items: readonly T[], idOf: (t: T) => string, path: (i: number) => string, what: string) => {
    const seen = new Map<string, number>();
    items.forEach((item, i) => {
      const id = idOf(item);
      const first = seen.get(id);
      if (first !== undefined) fail(path(i), `${what} ${id} is already defined at index ${first}`);
      else seen.set(id, i);
    });
  };
  const adminRule = (base: string, check: () => void) => {
    try {
      check();
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      fail(`${base}.${err.param}`, err.message);
    }
  };

  const channelIds = new Set([...doc.channels.map((c) => c.channelId), ...known.channels]);
  const partnerIds = new Set([...doc.tenants.partners.map((p) => p.partnerId), ...known.partners]);
  const groupIds = new Set([...doc.tenants.agentGroups.map((g) => g.agentGroupId), ...known.agentGroups]);
  const planIds = new Set([...doc.catalogue.cancellationPlans.map((p) => p.planId), ...known.cancellationPlans]);
  const knownChannel = (path: string, id: string) => channelIds.has(id) || fail(path, `channel ${id} is neither in channels nor stored`);

  unique(
    doc.channels,
    (c) => c.channelId,
    (i) => `channels[${i}].channelId`,
    'channel',
  );

  const { partners, agentGroups } = doc.tenants;
  unique(
    partners,
    (p) => p.partnerId,
    (i) => `tenants.partners[${i}].partnerId`,
    'partner',
  );
  unique(
    agentGroups,
    (g) => g.agentGroupId,
    (i) => `tenants.agentGroups[${i}].agentGroupId`,
    'agent group',
  );
  partners.forEach((p, i) => {
    adminRule(`tenants.partners[${i}]`, () => validatePartner(p));
    knownChannel(`tenants.partners[${i}].channelId`, p.channelId);
  });
  agentGroups.forEach((g, i) => {
    const base = `tenants.agentGroups[${i}]`;
    adminRule(base, () => validateAgentGroup({ ...g, address: { ...g.address } }));
    if (!partnerIds.has(g.partnerId)) fail(`${base}.partnerId`, `partner ${g.partnerId} is neither in tenants.partners nor stored`);
    knownChannel(`${base}.channelId`, g.channelId);
  });

  checkKeys(doc, opts, partnerIds, groupIds, fail, adminRule);
  checkCatalogue(doc, planIds, fail, unique, knownChannel, known.properties ?? new Map());
  checkGst(doc, fail, unique);

  if (issues.length) throw new WorldValidationError(issues);
}

type Fail = (path: string, message: string) => void;
type Unique = <T>(items: readonly T[], idOf: (t: T) => string, path: (i: number) => string, what: string) => void;

function checkKeys(
  doc: WorldDocument,
  opts: WorldCheckOptions,
  partnerIds: Set<string>,
  groupIds: Set<string>,
  fail: Fail,
  adminRule: (base: string, check: () => void) => void,
) {
  const secrets = new Map<string, string>();
  doc.keys.forEach((k, i) => {
    const base = `keys[${i}]`;
    const owners = k.owner.kind === 'partner' ? partnerIds : groupIds;
    if (!owners.has(k.owner.id)) fail(`${base}.owner.id`, `${k.owner.kind} ${k.owner.id} is neither in tenants nor stored`);
    if ((k.key === undefined) === (k.keyHash === undefined)) {
      fail(base, 'give exactly one of key (plaintext) and keyHash');
    } else if (k.key !== undefined) {
      if (!opts.allowPlaintextKeys) fail(`${base}.key`, 'plaintext keys are accepted on local and test stages only; give keyHash and keyPrefix instead');
      else if (!ACCEPTABLE_KEY_PATTERN.test(k.key)) fail(`${base}.key`, 'must be 16–128 printable characters without a colon');
      if (k.keyPrefix !== undefined) fail(`${base}.keyPrefix`, 'is taken from the key itself; leave it out when key is given');
    } else if (k.keyPrefix === undefined) {
      fail(`${base}.keyPrefix`, 'is required with keyHash (the leading characters shown back to the key holder)');
    }
    adminRule(base, () => validateRateLimit(k.rateLimit));
    if (k.signingSecret !== undefined) {
      if (k.owner.kind !== 'agent-group') fail(`${base}.signingSecret`, 'only agent-group keys have a callback signing secret');
      else if (!opts.allowPlaintextKeys) fail(`${base}.signingSecret`, 'plaintext signing secrets are accepted on local and test stages only');
      else if (!ACCEPTABLE_KEY_PATTERN.test(k.signingSecret)) fail(`${base}.signingSecret`, 'must be 16–128 printable characters without a colon');
      else {
        const earlier = secrets.get(k.owner.id);
        if (earlier !== undefined && earlier !== k.signingSecret)
          fail(`${base}.signingSecret`, `agent group ${k.owner.id} has one signing secret; an earlier key gives a different one`);
        secrets.set(k.owner.id, k.signingSecret);
      }
    }
  });
}

function checkRange(base: string, r: { from: string; to: string; daysOfWeek?: readonly string[] | undefined }, fail: Fail) {
  if (r.from > r.to) fail(`${base}.to`, `must not be before from (${r.from})`);
  else if (daysBetween(r.from, r.to) >= MAX_RANGE_DAYS) fail(`${base}.to`, `a range covers at most ${MAX_RANGE_DAYS} days`);
  if (r.daysOfWeek && new Set(r.daysOfWeek).size !== r.daysOfWeek.length) fail(`${base}.daysOfWeek`, 'names a day twice');
}

function checkCatalogue(
  doc: WorldDocument,
  planIds: Set<string>,
  fail: Fail,
  unique: Unique,
  knownChannel: (path: string, id: string) => void,
  storedProperties: ReadonlyMap<string, { readonly quantity: number; readonly applicableAdult: number; readonly maxAdults: number }>,
) {
  const { cancellationPlans, listings, offers, inventory, rates } = doc.catalogue;
  unique(
    cancellationPlans,
    (p) => p.planId,
    (i) => `catalogue.cancellationPlans[${i}].planId`,
    'cancellation plan',
  );
  cancellationPlans.forEach((p, i) => {
    p.schedule.forEach((step, j) => {
      const prev = p.schedule[j - 1];
      if (prev && step.daysBeforeCheckIn >= prev.daysBeforeCheckIn) {
        fail(`catalogue.cancellationPlans[${i}].schedule[${j}].daysBeforeCheckIn`, 'steps must go from the most days before check-in to the fewest');
      }
    });
  });

  unique(
    listings,
    (l) => l.id,
    (i) => `catalogue.listings[${i}].id`,
    'listing',
  );
  const allProperties = listings.flatMap((l, i) => l.properties.map((p, j) => ({ p, path: `catalogue.listings[${i}].properties[${j}]` })));
  const propertyIndex = new Map<string, (typeof allProperties)[number]>();
  for (const entry of allProperties) {
    const first = propertyIndex.get(entry.p.id);
    if (first) fail(`${entry.path}.id`, `property ${entry.p.id} is already defined at ${first.path}`);
    else propertyIndex.set(entry.p.id, entry);
  }
  for (const [id, p] of storedProperties)
    if (!propertyIndex.has(id)) propertyIndex.set(id, { p: { ...p, id } as (typeof allProperties)[number]['p'], path: 'stored' });
  listings.forEach((l, i) => {
    const base = `catalogue.listings[${i}]`;
    l.channelIds.forEach((c, j) => knownChannel(`${base}.channelIds[${j}]`, c));
    if (new Set(l.channelIds).size !== l.channelIds.length) fail(`${base}.channelIds`, 'names a channel twice');
    l.cancellationPlanIds.forEach(
      (p, j) => planIds.has(p) || fail(`${base}.cancellationPlanIds[${j}]`, `cancellation plan ${p} is neither in catalogue.cancellationPlans nor stored`),
    );
    if (!l.cancellationPlanIds.includes(l.defaultCancellationPlanId)) fail(`${base}.defaultCancellationPlanId`, 'must be one of cancellationPlanIds');
    l.properties.forEach((p, j) => {
      const pb = `${base}.properties[${j}]`;
      if (p.maxAdults < p.applicableAdult) fail(`${pb}.maxAdults`, `must be at least applicableAdult (${p.applicableAdult})`);
      if (p.maxChildren < p.applicableChild) fail(`${pb}.maxChildren`, `must be at least applicableChild (${p.applicableChild})`);
      if (p.numberOfPets > 0 && !p.isPetFriendly) fail(`${pb}.numberOfPets`, 'must be 0 unless isPetFriendly');
    });
    unique(
      l.meals,
      (m) => m.mealId,
      (j) => `${base}.meals[${j}].mealId`,
      'meal',
    );
    unique(
      l.vas,
      (s) => s.vasId,
      (j) => `${base}.vas[${j}].vasId`,
      'service',
    );
    l.vas.forEach((s, j) =>
      unique(
        s.variants,
        (x) => x.variantId,
        (k) => `${base}.vas[${j}].variants[${k}].variantId`,
        'variant',
      ),
    );
    const sim = l.simulator;
    if (sim && sim.mode === 'CONFIRM_AFTER' && sim.confirmAfterSeconds < 1)
      fail(`${base}.simulator.confirmAfterSeconds`, 'must be at least 1 for CONFIRM_AFTER');
    if (sim && sim.mode !== 'CONFIRM_AFTER' && sim.confirmAfterSeconds !== 0) fail(`${base}.simulator.confirmAfterSeconds`, 'applies only to CONFIRM_AFTER');
  });

  unique(
    offers,
    (o) => `${o.channelId}/${o.code}`,
    (i) => `catalogue.offers[${i}].code`,
    'offer',
  );
  offers.forEach((o, i) => {
    const base = `catalogue.offers[${i}]`;
    knownChannel(`${base}.channelId`, o.channelId);
    if (o.discountType === 'PERCENTAGE') {
      if (o.percent === undefined) fail(`${base}.percent`, 'is required for a PERCENTAGE offer');
      if (o.flatAmount !== undefined) fail(`${base}.flatAmount`, 'applies only to FLAT offers');
    } else {
      if (o.flatAmount === undefined || o.flatAmount <= 0) fail(`${base}.flatAmount`, 'is required (above 0) for a FLAT offer');
      if (o.percent !== undefined) fail(`${base}.percent`, 'applies only to PERCENTAGE offers');
      if (o.maxDiscount !== null) fail(`${base}.maxDiscount`, 'applies only to PERCENTAGE offers');
    }
    if (o.stayFrom && o.stayTo && o.stayFrom > o.stayTo) fail(`${base}.stayTo`, 'must not be before stayFrom');
    if (o.validFrom && o.validTo && o.validFrom > o.validTo) fail(`${base}.validTo`, 'must not be before validFrom');
  });

  inventory.forEach((r, i) => {
    const base = `catalogue.inventory[${i}]`;
    checkRange(base, r, fail);
    const found = propertyIndex.get(r.propertyId);
    if (!found) fail(`${base}.propertyId`, `property ${r.propertyId} is neither in catalogue.listings nor stored`);
    else if (r.quantity > found.p.quantity) fail(`${base}.quantity`, `must be at most the property's quantity (${found.p.quantity})`);
    if (r.minimumStay > r.maximumStay) fail(`${base}.maximumStay`, `must be at least minimumStay (${r.minimumStay})`);
    if ((r.minimumStayArrival ?? 1) > r.maximumStay) fail(`${base}.maximumStay`, `must be at least minimumStayArrival (${r.minimumStayArrival})`);
    for (const plan of MEAL_PLANS) {
      const own = r.ratePlans?.[plan];
      if (!own) continue;
      // A plan's limits are checked as sold: each field it leaves out is the room's.
      const max = own.maximumStay ?? r.maximumStay;
      const min = Math.max(own.minimumStay ?? r.minimumStay, own.minimumStayArrival ?? r.minimumStayArrival ?? 1);
      if (min > max) fail(`${base}.ratePlans.${plan}.maximumStay`, `must be at least the plan's minimum stay (${min})`);
    }
  });
  rates.forEach((r, i) => {
    const base = `catalogue.rates[${i}]`;
    checkRange(base, r, fail);
    const found = propertyIndex.get(r.propertyId);
    if (!found) fail(`${base}.propertyId`, `property ${r.propertyId} is neither in catalogue.listings nor stored`);
    const counts = Object.keys(r.adults);
    if (counts.length === 0) fail(`${base}.adults`, 'needs a rate for at least one adult count');
    if (found) {
      for (const n of counts) {
        // Up to applicableAdult every count has its rate; above it up to maxAdults a count may have its own (else applicableAdult's rate plus extraAdultRate).
        if (Number(n) > found.p.maxAdults) fail(`${base}.adults["${n}"]`, `exceeds the property's maxAdults (${found.p.maxAdults})`);
      }
    }
  });
}

function checkGst(doc: WorldDocument, fail: Fail, unique: Unique) {
  const { registrations, slabTables } = doc.gst;
  unique(
    registrations,
    (r) => r.state,
    (i) => `gst.registrations[${i}].state`,
    'registration for state',
  );
  registrations.forEach((r, i) => {
    if (!GSTIN_PATTERN.test(r.gstin)) fail(`gst.registrations[${i}].gstin`, 'must be a 15-character GSTIN such as 27AAPFU0939F1ZV');
    else if (!r.gstin.startsWith(r.stateCode)) fail(`gst.registrations[${i}].gstin`, `must start with the state code ${r.stateCode}`);
  });
  unique(
    slabTables,
    (t) => t.effectiveFrom,
    (i) => `gst.slabTables[${i}].effectiveFrom`,
    'slab table effective from',
  );
  slabTables.forEach((t, i) => {
    t.slabs.forEach((s, j) => {
      const path = `gst.slabTables[${i}].slabs[${j}].upToPerUnitNight`;
      const last = j === t.slabs.length - 1;
      if (last && s.upToPerUnitNight !== null) fail(path, 'the last slab must be open-ended (null)');
      if (!last && s.upToPerUnitNight === null) fail(path, 'only the last slab may be open-ended');
      const prev = t.slabs[j - 1]?.upToPerUnitNight;
      if (prev != null && s.upToPerUnitNight !== null && s.upToPerUnitNight <= prev) fail(path, 'slabs must rise in value');
    });
  });
}
