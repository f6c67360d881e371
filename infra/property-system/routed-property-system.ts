import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Guest } from '../../domain/bookings/booking.ts';
import type { SimulatorBehaviour } from '../../domain/catalogue/simulator.ts';
import type { ModificationRequest, ModificationResult, PropertySystem, ReservationRequest, ReservationState } from '../../domain/ports/property-system.ts';
import { keys } from '../dynamo/keys.ts';

/**
 * One property system per listing, chosen at run time (docs/decisions.md, "Channex outbound
 * per listing"): a listing whose connection says `channelManager: channex` goes out through
 * Channex, every other listing through the stage's default. Calls that name only the booking
 * follow where the booking went: Channex keeps a record of every booking it was pushed
 * (CHANNEX#BOOKING#<ref>); a booking without one never reached Channex, so it is the default's.
 */
export class RoutedPropertySystem implements PropertySystem {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly fallback: PropertySystem,
    private readonly channex: PropertySystem,
  ) {}

  async reserve(request: ReservationRequest): Promise<ReservationState> {
    return (await this.ofListing(request.listingId)).reserve(request);
  }

  async status(bookingRef: string): Promise<ReservationState> {
    return (await this.ofBooking(bookingRef)).status(bookingRef);
  }

  async cancel(bookingRef: string, at: string): Promise<void> {
    return (await this.ofBooking(bookingRef)).cancel(bookingRef, at);
  }

  async canModify(listingId: string): Promise<boolean> {
    return (await this.ofListing(listingId)).canModify(listingId);
  }

  async modify(request: ModificationRequest): Promise<ModificationResult> {
    return (await this.ofListing(request.listingId)).modify(request);
  }

  async forgetGuest(bookingRef: string, marker: Guest): Promise<void> {
    return (await this.ofBooking(bookingRef)).forgetGuest(bookingRef, marker);
  }

  private async ofListing(listingId: string): Promise<PropertySystem> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.simulator(listingId) }));
    return (out.Item as SimulatorBehaviour | undefined)?.channelManager === 'channex' ? this.channex : this.fallback;
  }

  private async ofBooking(bookingRef: string): Promise<PropertySystem> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.channexBooking(bookingRef), ConsistentRead: true }));
    return out.Item ? this.channex : this.fallback;
  }
}
