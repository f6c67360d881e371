/** The bookings area's adapters (orders, bookings, amendments, the property system, guest data), wired by the bookings function, the booking workflow and its sweeper and the guest-data erasure. */
import type { Clock } from '../../../domain/ports/clock.ts';
import { DynamoAmendmentStore } from '../../dynamo/dynamo-amendment-store.ts';
import { DynamoBookingReads } from '../../dynamo/dynamo-booking-reads.ts';
import { DynamoBookingStore } from '../../dynamo/dynamo-booking-store.ts';
import { DynamoGuestDataStore } from '../../dynamo/dynamo-guest-data.ts';
import { DynamoOrderStore } from '../../dynamo/dynamo-order-store.ts';
import { onFirstCall } from '../../lazy.ts';
import { ChannexPropertySystem } from '../../property-system/channex-property-system.ts';
import { RoutedPropertySystem } from '../../property-system/routed-property-system.ts';
import { SimulatedPropertySystem } from '../../property-system/simulated-property-system.ts';
import { adapterGroup, type Wiring } from '../core.ts';

const simulator = (w: Wiring, clock: Clock) =>
  new SimulatedPropertySystem(w.db(), w.table, clock, {
    timeScale: w.cfg.timeScale,
    windowSeconds: w.cfg.booking.windowSeconds,
    syncWaitMs: w.cfg.booking.syncWaitMs,
  });

/**
 * The stage param PROPERTY_SYSTEM chooses: Channex for every listing, or the simulator the project owns, where a
 * listing connected to Channex (channelManager: channex) still goes out through Channex when the stage has its
 * settings (docs/channel-manager.md; docs/decisions.md, "Channex outbound per listing").
 */
function propertySystemAt(w: Wiring, clock: Clock) {
  const { baseUrl, apiKey, providerCode, userApiKey, apiUrl } = w.cfg.channex;
  const channex =
    baseUrl && apiKey && providerCode ? new ChannexPropertySystem(w.db(), w.table, clock, { baseUrl, apiKey, providerCode, userApiKey, apiUrl }) : undefined;
  if (w.cfg.channex.propertySystem === 'channex') return channex!;
  return channex ? new RoutedPropertySystem(w.db(), w.table, simulator(w, clock), channex) : simulator(w, clock);
}

/** The bookings area's adapters: orders, bookings, amendments, the property system and guest data. */
export const bookingAdapters = adapterGroup({
  area: 'bookings',
  makers: (w) => ({
    orders: () => new DynamoOrderStore(w.db(), w.table),
    bookings: () => new DynamoBookingStore(w.db(), w.table, w.ledger(), w.auditTrail()),
    bookingQueue: () => onFirstCall(async () => new (await import('../../sqs/sqs-booking-queue.ts')).SqsBookingQueue(await w.sqs(), w.cfg.booking.queueUrl)),
    bookingReads: () => new DynamoBookingReads(w.db(), w.table),
    amendments: () => new DynamoAmendmentStore(w.db(), w.table, w.ledger(), w.auditTrail()),
    propertySystem: () => propertySystemAt(w, w.clock),
    // The record lives on the table whichever clock reads it, so the process's clock dates its expiry (a test clock never runs behind it).
    scenarioBook: () => simulator(w, w.clock),
    guestData: () => new DynamoGuestDataStore(w.db(), w.table, w.auditTrail()),
  }),
  atClock: (w, clock) => ({ propertySystem: () => propertySystemAt(w, clock) }),
});
