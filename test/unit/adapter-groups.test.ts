import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Clock } from '../../domain/ports/clock.ts';
import { ALL_ADAPTERS } from '../../infra/compose/all.ts';
import { billingAdapters } from '../../infra/compose/adapters/billing.ts';
import { bookingAdapters } from '../../infra/compose/adapters/bookings.ts';
import { AREA_OF, composeServices, NotWiredError, type Services } from '../../infra/compose/core.ts';
import { parseConfig } from '../../infra/config.ts';

/**
 * The adapter groups (infra/compose/core.ts): what a function's entry wires is what its
 * Services has. Adapters are constructed, never called: no network.
 */
const key32 = (): string => randomBytes(32).toString('base64');
const cfg = parseConfig({ STAGE: 'test', TABLE_NAME: 't', CURSOR_KEY: key32(), SECRETS_KEY: key32(), AWS_REGION: 'ap-south-1' });
const processClock: Clock = { now: () => new Date('2026-11-29T00:00:00Z') };
const groupClock: Clock = { now: () => new Date('2027-03-01T00:00:00Z') };
const read = (svc: Services, member: string): unknown => (svc as unknown as Record<string, unknown>)[member];

describe('Function: composeServices', () => {
  it('makes every core member with no group wired, and refuses each other member with NotWiredError naming its group', () => {
    // prepare
    const svc = composeServices(cfg, processClock, []);

    // act
    const refused = Object.entries(AREA_OF)
      .filter(([, area]) => area !== 'core')
      .map(([member, area]) => {
        try {
          read(svc, member);
          return `${member}: made`;
        } catch (err) {
          return err instanceof NotWiredError && err.message.includes(`the ${area} adapters`) ? 'refused' : `${member}: ${String(err)}`;
        }
      });

    // assess
    for (const [member, area] of Object.entries(AREA_OF)) if (area === 'core') expect(read(svc, member), member).toBeDefined();
    expect(refused.length).toBeGreaterThan(20);
    expect(refused.filter((r) => r !== 'refused')).toEqual([]);
  });

  it('makes the members of the groups wired, and still refuses the others', () => {
    // prepare
    const svc = composeServices(cfg, processClock, [bookingAdapters]);

    // act
    const bookings = svc.bookings;

    // assess
    expect(bookings).toBeDefined();
    expect(svc.propertySystem).toBeDefined();
    expect(() => svc.invoices).toThrow(NotWiredError);
    expect(() => svc.invoices).toThrow(/Services\.invoices .* the billing adapters/);
  });

  it('gives every member of Services a maker in exactly one group of ALL_ADAPTERS or the core', () => {
    // prepare
    const svc = composeServices(cfg, processClock, ALL_ADAPTERS);

    // act
    const unmade = Object.keys(AREA_OF).filter((member) => read(svc, member) === undefined);

    // assess
    expect(unmade).toEqual([]);
    expect(new Set(ALL_ADAPTERS.map((g) => g.area)).size).toBe(ALL_ADAPTERS.length);
  });

  it("remakes at a group's test clock only the members that read the clock, and shares the rest with the process's", () => {
    // prepare
    const svc = composeServices(cfg, processClock, [bookingAdapters, billingAdapters]);

    // act
    const atGroup = svc.atClock(groupClock);

    // assess
    expect(atGroup.clock).toBe(groupClock);
    expect(atGroup.realClock).toBe(processClock);
    expect(atGroup.propertySystem).not.toBe(svc.propertySystem);
    expect(atGroup.eInvoices).not.toBe(svc.eInvoices);
    expect(atGroup.bookings).toBe(svc.bookings);
    expect(atGroup.invoices).toBe(svc.invoices);
    expect(atGroup.ledger).toBe(svc.ledger);
    expect(svc.atClock(processClock) === svc).toBe(true);
    expect(() => atGroup.people).toThrow(NotWiredError);
  });
});

describe('Function: wire', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it("adds groups to what this process's services() builds, so a process that loads several entries gets every group they name", async () => {
    // prepare: a fresh module graph, as a function's bundle has
    vi.resetModules();
    for (const [name, value] of Object.entries({ STAGE: 'test', TABLE_NAME: 't', CURSOR_KEY: key32(), SECRETS_KEY: key32(), AWS_REGION: 'ap-south-1' }))
      vi.stubEnv(name, value);
    const core = await import('../../infra/compose/core.ts');
    const { bookingAdapters: bookings } = await import('../../infra/compose/adapters/bookings.ts');
    const { billingAdapters: billing } = await import('../../infra/compose/adapters/billing.ts');

    // act
    const unwired = core.services();
    core.wire(bookings);
    const withBookings = core.services();
    core.wire(bookings, billing);
    const withBoth = core.services();

    // assess
    expect(() => unwired.bookings).toThrow(core.NotWiredError);
    // Identity as a boolean: a matcher given a Services would read every member to describe it.
    expect(withBookings === unwired).toBe(false);
    expect(withBookings.bookings).toBeDefined();
    expect(() => withBookings.invoices).toThrow(core.NotWiredError);
    expect(withBoth.bookings).toBeDefined();
    expect(withBoth.invoices).toBeDefined();
    core.wire(billing);
    expect(core.services() === withBoth).toBe(true);
  });
});
