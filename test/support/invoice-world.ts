import { TEST_OPERATOR } from './audit-origin.ts';
import { randomInt } from 'node:crypto';
import { importWorld } from '../../domain/world/import-world.ts';
import { adminDeps, type Services } from '../../infra/container.ts';
import { placeStay } from './booking-world.ts';
import { fixtureWorld } from './catalogue-fixture.ts';
import { GST_SLABS } from './order-world.ts';
import { testServices, uniqueId, type GroupFixture } from './stack.ts';

export interface InvoiceWorld {
  readonly channelId: string;
  /** Confirms at once; its state has our GST registration (state code 30). */
  readonly registered: string;
  /** Confirms at once; its state has no registration of ours (billing holds it back). */
  readonly unregistered: string;
  /** Confirms at once; in a second registered state (state code 29, GSTIN `secondGstin`): a run over both writes two invoices. */
  readonly second: string;
  readonly secondGstin: string;
  readonly registeredState: string;
  readonly unregisteredState: string;
  /** A GSTIN of its own, so the world's invoice series is not shared with any other test. */
  readonly supplierGstin: string;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const letters = (n: number) => Array.from({ length: n }, () => LETTERS[randomInt(26)]).join('');

/** A well-formed, random GSTIN in a state (PAN-shaped middle, entity 1, Z, a check character). */
export const testGstin = (stateCode: string): string => `${stateCode}${letters(5)}${String(randomInt(10_000)).padStart(4, '0')}${letters(1)}1Z${letters(1)}`;

/**
 * The booking fixture's catalogue with the states billing needs: one listing in a state of
 * its own with a registration under a fresh GSTIN, one in a state without any, both
 * confirming at once, `units` a night (100 unless a test books more). 5,000 a night for two
 * adults + 5 % GST. With `eInvoicing`, the registered state's registration is marked for
 * e-invoicing (the second state's never is). With `refundPercentage`, cancelling 7 or more
 * days before check-in refunds that share instead of all of it (every fixture stay is months ahead).
 * `supplierGstin`: the registered state's GSTIN instead of a fresh one (the stack's registration on the fake portal).
 * `svc`: another stack's services (the fault stack's).
 */
export async function seedInvoiceWorld(
  opts: {
    readonly eInvoicing?: boolean;
    /** The registered state's registration is subject to the IRP's 30-day reporting window (`irpReportingWindow`). */
    readonly irpReportingWindow?: boolean;
    readonly units?: number;
    readonly refundPercentage?: number;
    readonly supplierGstin?: string;
    /** The registered state's GST state code (default "30"). */
    readonly stateCode?: string;
    /**
     * Only what billing one stay in the registered state needs: channel A, the registered
     * state's listing with its first suite, and that state's registration. `unregistered` and
     * `second` then name listings that were never imported. One suite of six, so a test that
     * seeds a world per state imports a small part of the writes.
     */
    readonly lean?: boolean;
  } = {},
  svc: Services = testServices(),
): Promise<InvoiceWorld> {
  const units = opts.units ?? 100;
  const tag = uniqueId('i').slice(2);
  const { ids, ...world } = fixtureWorld(tag);
  const registeredState = `Invoicestate ${tag}`;
  const unregisteredState = `Nostate ${tag}`;
  const stateCode = opts.stateCode ?? '30';
  const supplierGstin = opts.supplierGstin ?? testGstin(stateCode);
  const secondState = `Secondstate ${tag}`;
  const secondGstin = testGstin('29');
  const catalogue = world.catalogue!;
  const lean = opts.lean ?? false;
  const leanProperty = ids.propertiesOf[ids.onlyA]![0]!;
  const kept = <T>(items: readonly T[], propertyOf: (item: T) => string): T[] => (lean ? items.filter((i) => propertyOf(i) === leanProperty) : [...items]);
  const listings = lean
    ? catalogue.listings!.filter((l) => l.id === ids.onlyA).map((l) => ({ ...l, properties: l.properties.filter((p) => p.id === leanProperty) }))
    : catalogue.listings!;
  await importWorld(
    { ...adminDeps(svc, TEST_OPERATOR), catalogue: svc.catalogue },
    {
      ...world,
      channels: lean ? world.channels!.filter((c) => c.channelId === ids.channelA) : world.channels,
      catalogue: {
        ...catalogue,
        cancellationPlans:
          opts.refundPercentage === undefined
            ? catalogue.cancellationPlans
            : catalogue.cancellationPlans!.map((p) => ({
                ...p,
                schedule: [{ daysBeforeCheckIn: 7, refundPercentage: opts.refundPercentage!, label: `${opts.refundPercentage} % refund` }],
              })),
        listings: listings.map((l) => ({
          ...l,
          channelIds: lean ? [ids.channelA] : [ids.channelA, ids.channelB],
          state: l.id === ids.both ? unregisteredState : l.id === ids.onlyB ? secondState : registeredState,
          simulator: { mode: 'CONFIRM_IMMEDIATELY' as const },
          properties: l.properties.map((p) => ({ ...p, quantity: units })),
        })),
        inventory: kept(catalogue.inventory!, (i) => i.propertyId).map((i) => (i.stopSell ? i : { ...i, quantity: units })),
        rates: kept(catalogue.rates!, (r) => r.propertyId),
      },
      gst: {
        registrations: [
          {
            state: registeredState,
            stateCode,
            gstin: supplierGstin,
            legalName: 'Invoice Test Stays Pvt Ltd',
            address: '1 Beach Road, Anjuna, Goa 403509',
            eInvoicing: opts.eInvoicing ?? false,
            ...(opts.irpReportingWindow ? { irpReportingWindow: true } : {}),
          },
          ...(lean
            ? []
            : [
                {
                  state: secondState,
                  stateCode: '29',
                  gstin: secondGstin,
                  legalName: 'Invoice Test Stays Karnataka Pvt Ltd',
                  address: '80 Residency Road, Bengaluru 560025',
                },
              ]),
        ],
        slabTables: [GST_SLABS],
      },
    },
    { allowPlaintextKeys: true },
  );
  return {
    channelId: ids.channelA,
    registered: ids.onlyA,
    unregistered: ids.both,
    second: ids.onlyB,
    secondGstin,
    registeredState,
    unregisteredState,
    supplierGstin,
  };
}

/** Books one unit of the listing's first suite through the domain (placeStay) and returns the property-system booking id once CONFIRMED. */
export async function bookStay(group: GroupFixture, listingId: string, checkIn: string, checkOut: string): Promise<string> {
  const booking = await placeStay(group, listingId, checkIn, checkOut);
  if (booking.status !== 'CONFIRMED' || !booking.bookingId) throw new Error(`booking not confirmed: ${booking.status} ${booking.failure?.reason ?? ''}`);
  return booking.bookingId;
}
