import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { NO_STEPS_DONE, type Booking } from '../../domain/bookings/booking.ts';
import type { Minor } from '../../domain/money.ts';
import { bookingItem } from '../../infra/dynamo/entities/booking.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { seededGroups, testServices, uniqueId } from './stack.ts';

/** The group a seeded booking belongs to (a GroupFixture fits). */
export interface BookingOwner {
  readonly agentGroupId: string;
  readonly partnerId: string;
  readonly channelId: string;
}

/**
 * A complete stored Booking with plausible pricing (one item, GST 5 % inside the total),
 * CONFIRMED and landed unless overridden. Amounts in paise.
 */
export function bookingFixture(owner: BookingOwner, overrides: Partial<Booking> = {}): Booking {
  const amount: Minor = overrides.amount ?? 10_500_00;
  const gst = Math.round(amount / 21);
  const taxable = amount - gst;
  const checkIn = overrides.checkIn ?? '2027-03-01';
  const checkOut = overrides.checkOut ?? '2027-03-03';
  const listingId = overrides.listingId ?? 'villa-seeded';
  const at = overrides.updatedAt ?? new Date().toISOString();
  const bookingRef = overrides.bookingRef ?? randomUUID();
  return {
    bookingRef,
    agentGroupId: owner.agentGroupId,
    partnerId: owner.partnerId,
    channelId: owner.channelId,
    externalBookingId: uniqueId('ext'),
    orderId: randomUUID(),
    code: `BK-${bookingRef.slice(0, 6).toUpperCase()}`,
    status: 'CONFIRMED',
    bookingId: uniqueId('PS'),
    listingId,
    checkIn,
    checkOut,
    selectedProperties: [{ propertyId: `${listingId}-suite`, quantity: 1 }],
    currency: 'INR',
    items: [
      {
        listingId,
        checkIn,
        checkOut,
        nights: 2,
        soldOut: false,
        itemSubtotal: taxable,
        cancellationPlanId: 'moderate',
        cancellationPlanDiscount: 0,
        cancellationPolicy: [
          { cancelBy: '2027-02-15', refundPercentage: 100, label: 'Full refund until 15 Feb 2027' },
          { cancelBy: '2027-02-25', refundPercentage: 50, label: 'Half refund until 25 Feb 2027' },
        ],
      },
    ],
    summary: {
      baseSubtotal: taxable,
      mealsSubtotal: 0,
      vasSubtotal: 0,
      cancellationPlanDiscount: 0,
      stayAfterCancellationPlan: taxable,
      bankOffer: null,
      priceAfterBankOffer: taxable,
      offersDiscount: 0,
      taxableSubtotal: taxable,
      gst,
      grandTotal: amount,
    },
    amount,
    chargedTotal: amount,
    invoicedIn: [],
    lastAmendment: null,
    amendingId: null,
    ledgerEntryId: randomUUID(),
    primaryGuest: { firstName: 'Asha', lastName: 'Rao', email: 'asha@example.com', phone: '+919800000001' },
    additionalGuests: [{ firstName: 'Ravi' }],
    specialRequests: 'Late arrival',
    callbackUrl: 'https://partner.example.com/callbacks?token=do-not-echo',
    deadline: at,
    watchUntil: at,
    steps: NO_STEPS_DONE,
    failure: null,
    cancellation: null,
    confirmedAt: at,
    nextCheckAt: null,
    createdAt: at,
    updatedAt: at,
    version: 1,
    ...overrides,
  };
}

/**
 * Writes a booking exactly as the booking store does: the booking item (with its feed
 * index), the idempotency claim the credit gate left (carrying bookingRef), and, once the
 * booking has landed, the alias from its property-system id. Writing it again with a later
 * updatedAt moves it in the feed, as a status change does.
 */
export async function seedBooking(b: Booking): Promise<Booking> {
  const svc = testServices();
  const db = createDocumentClient(svc.config);
  const table = svc.config.tableName;
  seededGroups.add(b.agentGroupId);
  await Promise.all([
    db.send(new PutCommand({ TableName: table, Item: bookingItem(b) })),
    db.send(
      new PutCommand({
        TableName: table,
        Item: {
          ...keys.bookingClaim(b.agentGroupId, b.externalBookingId),
          entity: 'BookingClaim',
          externalBookingId: b.externalBookingId,
          contentHash: `seeded-${b.bookingRef}`,
          entryId: b.ledgerEntryId,
          bookingRef: b.bookingRef,
          createdAt: b.createdAt,
        },
      }),
    ),
    ...(b.bookingId
      ? [
          db.send(
            new PutCommand({
              TableName: table,
              Item: { ...keys.bookingAlias(b.agentGroupId, b.bookingId), entity: 'BookingAlias', bookingRef: b.bookingRef, bookingId: b.bookingId },
            }),
          ),
        ]
      : []),
  ]);
  return b;
}

/** bookingFixture then seedBooking. */
export const seedNewBooking = (owner: BookingOwner, overrides: Partial<Booking> = {}): Promise<Booking> => seedBooking(bookingFixture(owner, overrides));
