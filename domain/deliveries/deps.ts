import type { Clock } from '../ports/clock.ts';
import type { ChangeFeed } from '../ports/change-feed.ts';
import type { CursorCodec } from '../ports/cursor-codec.ts';
import type { DeliveryQueue } from '../ports/delivery-queue.ts';
import type { DeliveryStore } from '../ports/delivery-store.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { WebhookStore } from '../ports/webhook-store.ts';
import type { TenantDirectory } from '../ports/tenant-directory.ts';
import type { CallbackTransport, WebhookTransport } from '../ports/webhook-transport.ts';
import type { BookingCallbackOutcome } from './booking-callback.ts';
import type { CatalogueNotification } from './catalogue-event.ts';

/** Everything the delivery engine needs; each use case takes the part it uses. */
export interface DeliveryDeps {
  readonly deliveries: DeliveryStore;
  readonly changes: ChangeFeed;
  readonly webhooks: WebhookStore;
  readonly queue: DeliveryQueue;
  readonly transport: WebhookTransport;
  readonly cursors: CursorCodec;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Uniform in [0, 1): the schedule's jitter. */
  readonly random: () => number;
  /** Divides every schedule offset; 1 in production. */
  readonly timeScale: number;
  /** The wire form of a catalogue notification (events/catalogue-webhook.ts), fixed once per delivery. */
  readonly encodeNotification: (notification: CatalogueNotification) => string;
  /** Booking callbacks go out through their own transport: no endpoint, a per-attempt signature. */
  readonly callbackTransport: CallbackTransport;
  /** Where a group's (sealed) callback signing secret is read at each attempt, so a rotated secret signs the next one. */
  readonly callbackSecrets: Pick<TenantDirectory, 'getCallbackSecret'>;
  /** The wire form of a booking callback (events/booking-callback.ts), fixed once per delivery. */
  readonly encodeCallback: (outcome: BookingCallbackOutcome) => string;
  /** Attempts, permanent failures and overdue deliveries are counted here. */
  readonly metrics: Metrics;
}
