import type * as v from 'valibot';
import type { Booking } from '../../domain/bookings/booking.ts';
import type { CancellationQuote, CancelResult } from '../../domain/bookings/cancel-booking.ts';
import type { BookingCommand, BookingReply } from '../../domain/bookings/place-booking.ts';
import { parseRupees, toRupees } from '../../domain/money.ts';
import type { SandboxScenario } from '../../domain/sandbox/order-scenarios.ts';
import type { BookingScenario } from '../../domain/sandbox/workflow-scenarios.ts';
import type { Config } from '../../infra/config.ts';
import {
  BOOKING_SCENARIO_VALUES,
  type BookingBody,
  type BookingReplySchema,
  type CancellationQuoteSchema,
  type CancelReplySchema,
} from '../contracts/bookings.ts';
import { sandboxHeader } from '../http/sandbox-header.ts';
import type { HttpEvent } from '../http/types.ts';

/**
 * The scenario a booking request asks for (sandbox stages only), split by where it acts: a
 * moved price is a pricer in the dependencies, a workflow behaviour is recorded with the
 * simulated property system (withBookingScenario).
 */
export function bookingScenarioOf(
  event: Pick<HttpEvent, 'headers'>,
  config: Pick<Config, 'isSandbox'>,
): { readonly pricing?: SandboxScenario; readonly workflow?: BookingScenario } {
  const scenario = sandboxHeader(event, config, BOOKING_SCENARIO_VALUES);
  if (scenario === undefined) return {};
  return scenario === 'price-moved' ? { pricing: scenario } : { workflow: scenario };
}

/** The validated body as the domain takes it: money in paise. */
export function bookingCommand(body: BookingBody): BookingCommand {
  return {
    orderId: body.orderId,
    externalBookingId: body.externalBookingId,
    // The schema admitted only amounts parseRupees accepts.
    acceptedTotal: parseRupees(body.acceptedTotal)!,
    primaryGuest: body.primaryGuest,
    additionalGuests: body.additionalGuests ?? [],
    ...(body.specialRequests === undefined ? {} : { specialRequests: body.specialRequests }),
    ...(body.callbackUrl === undefined ? {} : { callbackUrl: body.callbackUrl }),
  };
}

/** What the group has on credit for the booking now: nothing once a failure released it. */
const chargedAmount = (b: Booking): number => toRupees(b.status === 'FAILED' ? 0 : b.amount);

export const bookingReplyJson = (reply: BookingReply): v.InferOutput<typeof BookingReplySchema> => ({
  bookingId: reply.status === 'PROCESSING' ? null : reply.booking.bookingId,
  externalBookingId: reply.booking.externalBookingId,
  status: reply.status,
  bookingStatus: reply.booking.status,
  code: reply.booking.code,
  chargedAmount: chargedAmount(reply.booking),
  availableCreditAfter: toRupees(reply.availableCreditAfter),
});

export const cancelReplyJson = (result: CancelResult): v.InferOutput<typeof CancelReplySchema> => ({
  bookingId: result.booking.bookingId!,
  externalBookingId: result.booking.externalBookingId,
  status: 'CANCELLED',
  chargedAmount: toRupees(result.booking.amount),
  cancellation: {
    cancelledAt: result.cancellation.cancelledAt,
    reason: result.cancellation.reason,
    refundPercentage: result.cancellation.refundPercentage,
    refundAmount: toRupees(result.cancellation.refundAmount),
  },
  alreadyCancelled: result.alreadyCancelled,
});

export const quoteJson = (booking: Booking, quote: CancellationQuote, quotedAt: Date): v.InferOutput<typeof CancellationQuoteSchema> => ({
  bookingId: booking.bookingId!,
  status: booking.status,
  cancellable: quote.cancellable,
  reason: quote.reason,
  chargedAmount: toRupees(quote.chargedAmount),
  refundPercentage: quote.refundPercentage,
  refundAmount: toRupees(quote.refundAmount),
  appliesUntil: quote.appliesUntil,
  label: quote.label,
  quotedAt: quotedAt.toISOString(),
});
