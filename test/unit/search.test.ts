import { describe, expect, it } from 'vitest';
import type { BankOffer } from '../../domain/catalogue/offers.ts';
import { ValidationError } from '../../domain/errors.ts';
import { priceOrder, searchPrice } from '../../domain/pricing/index.ts';
import type { AgentGroupPrincipal } from '../../domain/principal.ts';
import { daysOf } from '../../domain/search/listing-offer.ts';
import { compareOffers, pageOf, relevance } from '../../domain/search/rank.ts';
import { cancellationSummary, encodeListingId, searchListings, type SearchBody } from '../../domain/search/search-listings.ts';
import type { RawParam } from '../../domain/search/search-query.ts';
import { listing, memoryCatalogue, PLANS, rupees, specMonths, stayDaysOf, TODAY, type WorldSpec } from '../support/search-world.ts';

const principal: AgentGroupPrincipal = { kind: 'agent-group', agentGroupId: 'g1', partnerId: 'p1', channelId: 'web', keyId: 'k', keyPrefix: 'pds_x' };
const clock = { now: () => new Date(`${TODAY}T06:00:00Z`) };
const CHECK_IN = '2027-01-20';
const CHECK_OUT = '2027-01-23';
const stay = (...more: [string, ...string[]][]): RawParam[] => [
  { filterName: 'checkIn', filterValues: [CHECK_IN] },
  { filterName: 'checkOut', filterValues: [CHECK_OUT] },
  ...more.map(([filterName, ...filterValues]) => ({ filterName, filterValues })),
];

async function search(spec: WorldSpec, body: SearchBody) {
  const catalogue = memoryCatalogue(spec);
  const result = await searchListings({ catalogue, clock }, principal, body);
  return { result, catalogue };
}
const ids = (listings: readonly { listingId: string }[]) => listings.map((l) => l.listingId);

describe('Function: searchListings — filters', () => {
  const views = [
    listing('a-goa', { city: 'Anjuna', tags: ['beach', 'pool'], brand: 'Coastal', type: 'VILLA' }, [{ bedrooms: 3, isPetFriendly: true }]),
    listing('b-goa', { city: 'Assagao', tags: ['beach'], brand: 'Coastal', type: 'BUNGALOW', amenities: ['Garden'] }),
    listing('c-kerala', { city: 'Munnar', state: 'Kerala', locality: 'Pallivasal', tags: ['tea'], brand: 'Spice', type: 'VILLA' }),
    listing('d-inactive', { status: 'INACTIVE' }),
  ];

  it.each([
    [[['city', 'anjuna', 'MUNNAR']], ['a-goa', 'c-kerala']],
    [[['state', 'goa']], ['a-goa', 'b-goa']],
    [[['locality', 'Pallivasal']], ['c-kerala']],
    [[['propertyType', 'villa']], ['a-goa', 'c-kerala']],
    [[['brand', 'coastal']], ['a-goa', 'b-goa']],
    [[['tags', 'beach', 'pool']], ['a-goa']],
    [[['amenities', 'garden', 'wi-fi']], ['b-goa']],
    [[['petFriendly', 'true']], ['a-goa']],
    [[['petFriendly', 'false']], ['a-goa', 'b-goa', 'c-kerala']],
    [[['minBedrooms', '5']], ['a-goa']],
    [
      [
        ['city', 'Anjuna'],
        ['tags', 'tea'],
      ],
      [],
    ],
  ] as [[string, ...string[]][], string[]][])('%j keeps %j (INACTIVE never)', async (filters, expected) => {
    const { result } = await search({ views }, { rawParams: stay(...filters) });
    expect(ids(result.singleListings).sort()).toEqual(expected);
    expect(result.totalSingleListings).toBe(expected.length);
  });

  it('only searches listings distributed to the caller’s channel', async () => {
    const { result } = await search({ views, distributed: ['b-goa'] }, { rawParams: stay() });
    expect(ids(result.singleListings)).toEqual(['b-goa']);
  });

  it('bounds the per-night price (before GST) with minPrice and maxPrice', async () => {
    const priced = [listing('cheap'), listing('dear')];
    const rate = (p: string) => (p.startsWith('cheap') ? 3_000 : 9_000);
    const cheapOnly = await search({ views: priced, rate }, { rawParams: stay(['maxPrice', '3000']) });
    expect(ids(cheapOnly.result.singleListings)).toEqual(['cheap']);
    const dearOnly = await search({ views: priced, rate }, { rawParams: stay(['minPrice', '3000.01']) });
    expect(ids(dearOnly.result.singleListings)).toEqual(['dear']);
  });
});

describe('Function: searchListings — availability', () => {
  const two = [listing('open'), listing('closed')];

  it.each([
    ['a stop-sell night', { stopSell: true }],
    ['no unit open on a night', { quantity: 0 }],
    ['a minimum stay longer than the stay on any night', { minimumStay: 4 }],
    ['a maximum stay shorter than the stay', { maximumStay: 2 }],
  ])('leaves out a listing with %s', async (_, override) => {
    const inventory = { 'closed-p1|2027-01-21': override };
    const { result } = await search({ views: two, inventory }, { rawParams: stay() });
    expect(ids(result.singleListings)).toEqual(['open']);
  });

  it('does not look at nights outside the stay (check-out day included)', async () => {
    const inventory = { [`closed-p1|${CHECK_OUT}`]: { stopSell: true }, 'closed-p1|2027-01-19': { stopSell: true } };
    const { result } = await search({ views: two, inventory }, { rawParams: stay() });
    expect(ids(result.singleListings).sort()).toEqual(['closed', 'open']);
  });

  it('chooses units among those open on every night, so a listing with a sold-out room type still sells the other', async () => {
    const mixed = listing('mixed', {}, [
      { maxAdults: 4, applicableAdult: 4, quantity: 1 },
      { maxAdults: 4, applicableAdult: 4, quantity: 1 },
    ]);
    const inventory = { 'mixed-p1|2027-01-22': { quantity: 0 } };
    const { result } = await search({ views: [mixed], inventory }, { rawParams: stay(['adults', '4']) });
    expect(result.singleListings[0]!.selectedProperties).toEqual([{ propertyId: 'mixed-p2', title: 'Unit mixed-p2', quantity: 1 }]);
  });

  it('needs enough open units for the whole party on every night', async () => {
    const inventory = { 'closed-p1|2027-01-21': { quantity: 1 } };
    // Each listing: 2 units of 3 adults; 5 adults need both units.
    const { result } = await search({ views: two, inventory }, { rawParams: stay(['adults', '5']) });
    expect(ids(result.singleListings)).toEqual(['open']);
    expect(result.singleListings[0]!.selectedProperties).toEqual([{ propertyId: 'open-p1', title: 'Unit open-p1', quantity: 2 }]);
  });
});

describe('Function: searchListings — prices', () => {
  it('prices through priceOrder: the price equals searchPrice of the order preview for the same units', async () => {
    const view = listing('v', {}, [{ maxAdults: 5, applicableAdult: 4, quantity: 1 }]);
    const spec = { views: [view], rate: () => 6_000 };
    const { result } = await search(spec, { rawParams: stay(['adults', '5'], ['children', '1'], ['mealPlan', 'EP']) });
    const found = result.singleListings[0]!;
    const months = stayDaysOf(specMonths(spec), ['v-p1'], ['2027-01-20', '2027-01-21', '2027-01-22']);
    const preview = priceOrder({
      request: { listingId: 'v', checkIn: CHECK_IN, checkOut: CHECK_OUT, adults: 5, children: 1, selectedProperties: [{ propertyId: 'v-p1', quantity: 1 }] },
      context: {
        listing: view.listing,
        properties: view.properties,
        days: daysOf(months),
        meals: [],
        vas: [],
        cancellationPlans: PLANS,
        channel: { channelId: 'web', name: 'web', rateAdjustmentPercent: 0 },
        bankOffers: [],
        gstSlabTables: [
          {
            effectiveFrom: '2020-01-01',
            slabs: [
              { upToPerUnitNight: rupees(7_500), ratePercent: 5 },
              { upToPerUnitNight: null, ratePercent: 18 },
            ],
          },
        ],
        today: TODAY,
      },
    });
    expect(found.price).toEqual(searchPrice(preview));
    // 4 adults included at ₹7,500 + 1 extra adult ₹1,000 (+ child within applicableChild) = ₹8,500 a night.
    expect(found.price).toMatchObject({ perNight: rupees(8_500), total: rupees(25_500), totalSaving: 0, discountPercent: 0 });
  });

  it("applies the channel's rate adjustment", async () => {
    const { result } = await search({ views: [listing('v')], channel: { channelId: 'web', name: 'web', rateAdjustmentPercent: -10 } }, { rawParams: stay() });
    expect(result.singleListings[0]!.price.perNight).toBe(rupees(3_600));
  });

  it('quotes every plan of the listing and prices with the selected plan where the listing offers it', async () => {
    const views = [listing('both'), listing('flex-only', { cancellationPlanIds: ['flexible'] })];
    const { result } = await search({ views }, { rawParams: stay(['sort', 'price_asc']), selectedCancellationPlanId: 'nonref' });
    const [both, flexOnly] = result.singleListings;
    expect(both!.listingId).toBe('both');
    expect(both!.price).toMatchObject({ total: rupees(10_800), totalBeforeDiscount: rupees(12_000), totalSaving: rupees(1_200), discountPercent: 10 });
    expect(both!.cancellationPlans.map((p) => [p.id, p.hasDiscount, p.totalAfterDiscount, p.discountPercent])).toEqual([
      ['flexible', false, rupees(12_000), 0],
      ['nonref', true, rupees(10_800), 10],
    ]);
    expect(flexOnly!.price.total).toBe(rupees(12_000));
  });

  it('refuses a cancellation plan that does not exist', async () => {
    await expect(search({ views: [listing('v')] }, { rawParams: stay(), selectedCancellationPlanId: 'nope' })).rejects.toMatchObject({
      param: 'selectedCancellationPlanId',
    });
  });

  it('lists the titles of bank offers the stay is eligible for, without applying them', async () => {
    const offer = (code: string, over: Partial<BankOffer>): BankOffer => ({
      channelId: 'web',
      code,
      title: `${code} offer`,
      discountType: 'PERCENTAGE',
      percent: 10,
      flatAmount: null,
      maxDiscount: null,
      minOrderValue: 0,
      stayFrom: null,
      stayTo: null,
      minNights: 1,
      validFrom: null,
      validTo: null,
      ...over,
    });
    const offers = [offer('HDFC10', {}), offer('LONG', { minNights: 5 }), offer('BIG', { minOrderValue: rupees(50_000) }), offer('AXIS', {})];
    const { result } = await search({ views: [listing('v')], offers }, { rawParams: stay() });
    expect(result.singleListings[0]!.offerTitles).toEqual(['AXIS offer', 'HDFC10 offer']);
    expect(result.singleListings[0]!.price.totalSaving).toBe(0);
  });

  it('summarises a plan from the same refund schedule an order carries', () => {
    expect(cancellationSummary(PLANS[0]!, CHECK_IN, TODAY)).toBe('Full refund if cancelled by 2027-01-13; no refund after 2027-01-13.');
    expect(cancellationSummary(PLANS[0]!, CHECK_IN, '2027-01-14')).toBe('No refund on cancellation from now on.');
    expect(cancellationSummary(PLANS[1]!, CHECK_IN, TODAY)).toBe('Non-refundable: no refund on cancellation.');
  });
});

describe('Function: searchListings — ordering and pages', () => {
  const views = [
    listing('l1', { rating: 5, reviewCount: 2 }),
    listing('l2', { rating: 4.8, reviewCount: 400 }),
    listing('l3', { rating: 4.1, reviewCount: 50 }),
    listing('l4', { rating: 4.8, reviewCount: 10 }),
  ];
  const rate = (p: string) => ({ 'l1-p1': 5_000, 'l2-p1': 7_000, 'l3-p1': 3_000, 'l4-p1': 5_000 })[p]!;

  it.each([
    ['relevance', ['l2', 'l4', 'l1', 'l3']],
    ['rating', ['l1', 'l2', 'l4', 'l3']],
    ['price_asc', ['l3', 'l1', 'l4', 'l2']],
    ['price_desc', ['l2', 'l1', 'l4', 'l3']],
  ])('sort=%s orders %j (ties by id)', async (sort, expected) => {
    const { result } = await search({ views, rate }, { rawParams: stay(['sort', sort]) });
    expect(ids(result.singleListings)).toEqual(expected);
  });

  it('pages without overlap and reports totals; a page past the end is empty', async () => {
    const pages = await Promise.all(
      [1, 2, 3].map((page) => search({ views, rate }, { rawParams: stay(['sort', 'price_asc'], ['size', '3'], ['page', String(page)]) })),
    );
    expect(pages.map((p) => ids(p.result.singleListings))).toEqual([['l3', 'l1', 'l4'], ['l2'], []]);
    expect(pages[0]!.result).toMatchObject({ page: 1, size: 3, totalSingleListings: 4, totalPages: 2, nights: 3, requiredAdults: 1, requiredChildren: 0 });
  });

  it('relevance trusts many reviews over a few perfect ones', () => {
    expect(relevance(4.8, 400)).toBeGreaterThan(relevance(5, 2));
    expect(relevance(4, 0)).toBe(4);
  });

  it('pageOf gives 0 pages for nothing', () => {
    expect(pageOf([], 1, 20)).toEqual({ items: [], totalPages: 0 });
    expect(compareOffers('rating')).toBeTypeOf('function');
  });
});

describe('Function: searchListings — reads', () => {
  it('reads the head, then only the shards of the places the query names, whose cards serve the page', async () => {
    const views = [
      listing('big', { city: 'Anjuna' }, [{ maxAdults: 6, applicableAdult: 6, quantity: 1 }]),
      listing('small', { city: 'Anjuna' }, [{ quantity: 1 }]),
      listing('elsewhere', { city: 'Munnar' }),
    ];
    const { result, catalogue } = await search({ views }, { rawParams: stay(['city', 'Anjuna'], ['adults', '6']) });
    expect(ids(result.singleListings)).toEqual(['big']);
    expect(catalogue.shardsAsked).toEqual(['goa|anjuna#0']);
    expect(catalogue.reads).toEqual({ head: 1, shards: 1 });
  });

  it('reads the full views of the page when the shards came without their cards (a search of many places)', async () => {
    const views = [listing('a', { city: 'Anjuna' }), listing('m', { city: 'Munnar' })];
    const { result, catalogue } = await search({ views }, { rawParams: stay() });
    expect(ids(result.singleListings).sort()).toEqual(['a', 'm']);
    expect(catalogue.reads).toEqual({ head: 1, shards: 1, listingViews: 1 });
  });

  it('encodes the listing id as base64url', () => {
    expect(encodeListingId('goa/anjuna casa')).toBe('Z29hL2FuanVuYSBjYXNh');
  });
});

describe('Function: searchListings — pinned properties', () => {
  const views = [listing('v1', {}, [{ quantity: 2 }, { maxAdults: 6, applicableAdult: 6, quantity: 1 }]), listing('v2')];

  it('prices the pinned units and narrows the search to their listings', async () => {
    const { result, catalogue } = await search({ views }, { rawParams: stay(['adults', '4']), selections: [{ type: 'PROPERTY', id: 'v1-p1', quantity: 2 }] });
    expect(ids(result.singleListings)).toEqual(['v1']);
    expect(result.singleListings[0]!.selectedProperties).toEqual([{ propertyId: 'v1-p1', title: 'Unit v1-p1', quantity: 2 }]);
    expect(catalogue.reads.head).toBe(1);
  });

  it('leaves the listing out when the pinned units are not open', async () => {
    const { result } = await search(
      { views, inventory: { 'v1-p1|2027-01-21': { quantity: 1 } } },
      { rawParams: stay(), selections: [{ type: 'PROPERTY', id: 'v1-p1', quantity: 2 }] },
    );
    expect(result.singleListings).toEqual([]);
    expect(result.combinedGroups).toEqual([]);
  });

  it("refuses a property of another channel's listing exactly like an unknown one", async () => {
    const foreign = await search({ views, distributed: ['v2'] }, { rawParams: stay(), selections: [{ type: 'PROPERTY', id: 'v1-p1' }] }).catch(
      (e: ValidationError) => e,
    );
    const unknown = await search({ views }, { rawParams: stay(), selections: [{ type: 'PROPERTY', id: 'nope' }] }).catch((e: ValidationError) => e);
    expect(foreign).toBeInstanceOf(ValidationError);
    expect((foreign as ValidationError).param).toBe('selections[0].id');
    expect((foreign as ValidationError).message.replace('v1-p1', 'X')).toBe((unknown as ValidationError).message.replace('nope', 'X'));
  });

  it('refuses pinned units too small for the party, naming the quantity', async () => {
    await expect(search({ views }, { rawParams: stay(['adults', '4']), selections: [{ type: 'PROPERTY', id: 'v1-p1', quantity: 1 }] })).rejects.toMatchObject({
      param: 'selections[0].quantity',
    });
  });
});
