/**
 * The deliveries area's wiring: the webhook engine (publish, worker, sweeper, delivery reads and
 * resends, the change feed) and the booking callbacks it carries.
 * Handlers import this module and `core.ts`, never another area's (docs/decisions/platform.md, "Composition per area").
 */
import type { BookingCallbackOutcome } from '../../domain/deliveries/booking-callback.ts';
import type { DeliveryDeps } from '../../domain/deliveries/deps.ts';
import { publishBookingCallback, type PublishCallbackDeps } from '../../domain/deliveries/publish-booking-callback.ts';
import { bookingCallbackBody } from '../../events/booking-callback.ts';
import { catalogueWebhookBody } from '../../events/catalogue-webhook.ts';
import type { Services } from './core.ts';

/** What the delivery engine (publish, worker, sweeper, delivery reads) needs, from the same adapters. */
export function deliveryDeps(svc: Services): DeliveryDeps {
  return {
    deliveries: svc.deliveries,
    changes: svc.changes,
    webhooks: svc.webhooks,
    queue: svc.deliveryQueue,
    transport: svc.webhookTransport,
    cursors: svc.cursors,
    // Deliveries are scheduled and swept in real time, whatever a group's test clock says.
    clock: svc.realClock,
    ids: svc.ids,
    random: Math.random,
    timeScale: svc.config.timeScale,
    encodeNotification: catalogueWebhookBody,
    callbackTransport: svc.callbackTransport,
    callbackSecrets: svc.tenants,
    encodeCallback: bookingCallbackBody,
    metrics: svc.metrics,
  };
}

/** What publishing a booking callback needs (the booking workflow calls `publishBookingCallback(callbackDeps(svc), outcome)`). */
export function callbackDeps(svc: Services): PublishCallbackDeps {
  const { deliveries, queue, clock, random, timeScale, encodeCallback } = deliveryDeps(svc);
  return { deliveries, queue, clock, random, timeScale, encodeCallback };
}

/** Publishes one booking outcome on this process's adapters; the shape a workflow dependency wants. */
export const bookingCallbackPublisher = (svc: Services) => {
  const deps = callbackDeps(svc);
  return (outcome: BookingCallbackOutcome) => publishBookingCallback(deps, outcome);
};
