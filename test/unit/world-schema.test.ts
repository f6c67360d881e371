import { describe, expect, it } from 'vitest';
import { checkWorld } from '../../domain/world/check-world.ts';
import { worldCatalogue } from '../../domain/world/world-catalogue.ts';
import { parseWorldShape } from '../../domain/world/world-schema.ts';
import { formatPath, WorldValidationError } from '../../domain/world/world-validation-error.ts';
import { smallWorld } from '../support/world-fixture.ts';

const SANDBOX = { allowPlaintextKeys: true };

/** Parses and checks; returns the error (or undefined when the document is valid). */
function problems(document: unknown, opts = SANDBOX): WorldValidationError | undefined {
  try {
    checkWorld(parseWorldShape(document), opts);
    return undefined;
  } catch (err) {
    if (err instanceof WorldValidationError) return err;
    throw err;
  }
}

const paths = (err: WorldValidationError | undefined) => err?.issues.map((i) => i.path) ?? [];

describe('Function: parseWorldShape + checkWorld', () => {
  it('accepts a complete small world and converts rupees to paise', () => {
    // Prepare
    const world = smallWorld('ok');

    // Act
    const doc = parseWorldShape(world);
    checkWorld(doc, SANDBOX);

    // Assess
    expect(doc.catalogue.listings[1]!.basePrice).toBe(600_050);
    expect(doc.catalogue.listings[0]!.properties[0]!.extraAdultRate).toBe(120_000);
    expect(doc.catalogue.rates[0]!.adults).toEqual({ '1': 800_000, '2': 850_000, '6': 900_000 });
    expect(doc.tenants.agentGroups[0]!.creditLimit).toBe(5_000_000);
  });

  it('names the JSON path of a wrong type deep inside a listing', () => {
    const world = smallWorld('t');
    (world.catalogue.listings![0]!.properties[1] as Record<string, unknown>).maxAdults = 'three';

    const err = problems(world);

    expect(err).toBeInstanceOf(WorldValidationError);
    expect(err!.param).toBe('catalogue.listings[0].properties[1].maxAdults');
    expect(err!.code).toBe('VALIDATION_FAILED');
    expect(err!.message).toMatch(/^catalogue\.listings\[0]\.properties\[1]\.maxAdults: /);
  });

  it('rejects an unknown field by its path (strict objects)', () => {
    const world = smallWorld('t') as Record<string, any>;
    world.catalogue.listings[1].properties[0].bedroomz = 2;

    expect(paths(problems(world))).toEqual(['catalogue.listings[1].properties[0].bedroomz']);
  });

  it('rejects money with more than two decimals and negative money', () => {
    const world = smallWorld('t');
    world.catalogue.listings![0]!.basePrice = 10.005;
    world.catalogue.listings![0]!.meals![0]!.adultPrice = -1;

    expect(paths(problems(world))).toEqual(['catalogue.listings[0].basePrice', 'catalogue.listings[0].meals[0].adultPrice']);
  });

  it('keeps a rate to the paisa and rejects a third decimal', () => {
    const world = smallWorld('t');
    world.catalogue.rates![0]!.adults['1'] = 7_999.5;
    expect(problems(world)).toBeUndefined();
    world.catalogue.rates![0]!.adults['1'] = 7_999.505;

    expect(paths(problems(world))).toEqual(['catalogue.rates[0].adults["1"]']);
  });

  it('rejects impossible dates and a range that ends before it starts', () => {
    const world = smallWorld('t');
    world.catalogue.inventory![0]!.from = '2027-02-30';
    world.catalogue.rates![1]!.to = '2027-02-01';

    expect(paths(problems(world))).toEqual(['catalogue.inventory[0].from']);
    world.catalogue.inventory![0]!.from = '2027-03-01';
    expect(paths(problems(world))).toEqual(['catalogue.rates[1].to']);
  });

  it('reports applicableAdult above maxAdults at maxAdults', () => {
    const world = smallWorld('t');
    world.catalogue.listings![0]!.properties[1]!.maxAdults = 1;

    // Its rate for 2 adults is then above the unit's most adults too.
    expect(paths(problems(world))).toEqual(['catalogue.listings[0].properties[1].maxAdults', 'catalogue.rates[2].adults["2"]']);
  });

  it('reports every problem, not just the first, with the count in the message', () => {
    const world = smallWorld('t');
    world.channels![0]!.rateAdjustmentPercent = 2.5;
    world.catalogue.listings![0]!.status = 'LIVE' as 'ACTIVE';

    const err = problems(world);

    expect(paths(err)).toEqual(['channels[0].rateAdjustmentPercent', 'catalogue.listings[0].status']);
    expect(err!.issueCount).toBe(2);
    expect(err!.message).toContain('(and 1 more problem)');
  });

  describe('references', () => {
    it('rejects distribution to an unknown channel', () => {
      const world = smallWorld('t');
      world.catalogue.listings![1]!.channelIds = ['nowhere'];

      expect(paths(problems(world))).toEqual(['catalogue.listings[1].channelIds[0]']);
    });

    it('accepts a channel the store already has', () => {
      const world = smallWorld('t');
      world.catalogue.listings![1]!.channelIds = ['stored-channel'];

      expect(() =>
        checkWorld(parseWorldShape(world), SANDBOX, {
          channels: new Set(['stored-channel']),
          partners: new Set(),
          agentGroups: new Set(),
          cancellationPlans: new Set(),
        }),
      ).not.toThrow();
    });

    it('rejects an offer on an unknown channel and a FLAT offer with a percent', () => {
      const world = smallWorld('t');
      world.catalogue.offers![0]!.channelId = 'nowhere';
      world.catalogue.offers![1]!.percent = 10;

      expect(paths(problems(world))).toEqual(['catalogue.offers[0].channelId', 'catalogue.offers[1].percent']);
    });

    it('rejects an unknown cancellation plan and a default outside the listing plans', () => {
      const world = smallWorld('t');
      world.catalogue.listings![0]!.cancellationPlanIds = ['flex-t', 'gone'];
      world.catalogue.listings![1]!.defaultCancellationPlanId = 'nr-t';

      expect(paths(problems(world))).toEqual(['catalogue.listings[0].cancellationPlanIds[1]', 'catalogue.listings[1].defaultCancellationPlanId']);
    });

    it('takes rates up to maxAdults and rejects more, and ranges for unknown properties', () => {
      const world = smallWorld('t');
      // The property applies its rate to 2 adults and takes 3: a rate for 3 is that occupancy's own, 4 is too many.
      world.catalogue.rates![2]!.adults = { '3': 5_000, '4': 6_000 };
      world.catalogue.inventory![2]!.propertyId = 'ghost';

      expect(paths(problems(world))).toEqual(['catalogue.inventory[2].propertyId', 'catalogue.rates[2].adults["4"]']);
    });

    it('rejects inventory above the property quantity and duplicate property ids across listings', () => {
      const world = smallWorld('t');
      world.catalogue.inventory![0]!.quantity = 2;
      world.catalogue.listings![1]!.properties[0]!.id = 'l1p2-t';

      const err = problems(world);

      expect(paths(err)).toContain('catalogue.inventory[0].quantity');
      expect(paths(err)).toContain('catalogue.listings[1].properties[0].id');
    });

    it('rejects an agent group of an unknown partner and applies the admin validators', () => {
      const world = smallWorld('t');
      world.tenants!.agentGroups![0]!.partnerId = 'nobody';
      world.tenants!.agentGroups![0]!.gstin = '27-not-a-gstin';
      world.tenants!.agentGroups![0]!.billingAnchorDay = 30;

      expect(paths(problems(world))).toEqual(['tenants.agentGroups[0].billingAnchorDay', 'tenants.agentGroups[0].partnerId']);
      world.tenants!.agentGroups![0]!.billingAnchorDay = 1;
      expect(paths(problems(world))).toEqual(['tenants.agentGroups[0].gstin', 'tenants.agentGroups[0].partnerId']);
    });

    it('rejects a supplier GSTIN from another state and a slab table without an open top', () => {
      const world = smallWorld('t');
      world.gst!.registrations![0]!.stateCode = '27';
      world.gst!.slabTables![1]!.slabs = [{ upToPerUnitNight: 7_500, ratePercent: 5 }];

      expect(paths(problems(world))).toEqual(['gst.registrations[0].gstin', 'gst.slabTables[1].slabs[0].upToPerUnitNight']);
    });
  });

  describe('keys', () => {
    it('accepts plaintext keys and signing secrets on sandbox stages only', () => {
      const world = smallWorld('t');

      expect(problems(world, { allowPlaintextKeys: true })).toBeUndefined();
      expect(paths(problems(world, { allowPlaintextKeys: false }))).toEqual(['keys[0].key', 'keys[1].key', 'keys[1].signingSecret']);
    });

    it('accepts a hash with a prefix anywhere', () => {
      const world = smallWorld('t');
      world.keys = [{ owner: { kind: 'partner', id: 'p-t' }, keyHash: 'a'.repeat(64), keyPrefix: 'pds_AbCdEfGh' }];

      expect(problems(world, { allowPlaintextKeys: false })).toBeUndefined();
    });

    it('wants exactly one of key and keyHash, a prefix with a hash, and a known owner', () => {
      const world = smallWorld('t');
      world.keys = [
        { owner: { kind: 'partner', id: 'p-t' }, key: 'pds_test_partner_t_key', keyHash: 'a'.repeat(64) },
        { owner: { kind: 'partner', id: 'p-t' }, keyHash: 'b'.repeat(64) },
        { owner: { kind: 'agent-group', id: 'nobody' }, keyHash: 'c'.repeat(64), keyPrefix: 'pds_x' },
        { owner: { kind: 'partner', id: 'p-t' }, key: 'pds_test_partner_t_key2', signingSecret: 'whsec_for_a_partner_key' },
      ];

      expect(paths(problems(world))).toEqual(['keys[0]', 'keys[1].keyPrefix', 'keys[2].owner.id', 'keys[3].signingSecret']);
    });

    it('rejects a short key and a rate limit out of range', () => {
      const world = smallWorld('t');
      world.keys![0]!.key = 'short';
      world.keys![1]!.rateLimit = { perMinute: 0, burst: 10 };

      expect(paths(problems(world))).toEqual(['keys[0].key', 'keys[1].rateLimit.perMinute']);
    });
  });

  it('rejects a document of another format version at version', () => {
    expect(paths(problems({ ...smallWorld('t'), version: 2 }))).toEqual(['version']);
    expect(paths(problems('not a document'))).toEqual(['']);
  });
});

describe('Function: worldCatalogue', () => {
  it('lets later ranges win: inventory wholesale, rates per meal plan and adult count', () => {
    const doc = parseWorldShape(smallWorld('t', '2027-03-01'));

    const days = worldCatalogue(doc).days;

    const cottage = days.get('l1p2-t')!;
    expect(cottage.get('2027-03-03')!.inventory).toEqual({ quantity: 0, minimumStay: 1, maximumStay: 30, stopSell: false });
    expect(cottage.get('2027-03-04')!.inventory!.quantity).toBe(3);
    const villa = days.get('l1p1-t')!;
    // 2027-03-05 is a Friday: the weekend range overrides adults 6 only.
    expect(villa.get('2027-03-05')!.rates).toEqual({ EP: { '1': 800_000, '2': 850_000, '6': 1_100_000 } });
    expect(villa.get('2027-03-04')!.rates).toEqual({ EP: { '1': 800_000, '2': 850_000, '6': 900_000 } });
    expect(villa.size).toBe(7);
  });

  it('fills property defaults from the listing and stores the default simulator behaviour', () => {
    const c = worldCatalogue(parseWorldShape(smallWorld('t')));

    const chalet = c.properties.find((p) => p.id === 'l2p1-t')!;
    expect(chalet).toMatchObject({ title: 'Chalet', brand: 'Fixture Stays', location: 'Old Manali', latitude: 32.24, longitude: 77.19 });
    expect(c.simulators).toEqual([
      { listingId: 'l1-t', mode: 'CONFIRM_AFTER', confirmAfterSeconds: 30, refusesChanges: false, cannotModify: false },
      { listingId: 'l2-t', mode: 'CONFIRM_IMMEDIATELY', confirmAfterSeconds: 0, refusesChanges: false, cannotModify: false },
    ]);
    expect(c.distributions).toHaveLength(3);
  });
});

describe('Function: formatPath', () => {
  it('writes indexes in brackets and quotes keys that are not identifiers', () => {
    expect(formatPath(['catalogue', 'listings', 3, 'properties', 1, 'maxAdults'])).toBe('catalogue.listings[3].properties[1].maxAdults');
    expect(formatPath(['catalogue', 'rates', 0, 'adults', '9'])).toBe('catalogue.rates[0].adults["9"]');
  });
});
