import * as v from 'valibot';
import { DELIVERY_KINDS } from '../domain/deliveries/delivery.ts';
import type { DeliveryCommand } from '../domain/ports/delivery-queue.ts';
import { parseMessage } from './json-message.ts';

/**
 * The delivery queue's message body: which attempt of which delivery is due. Nothing
 * else travels on the queue; the payload, the endpoint and the history stay in the table.
 */
export const DeliveryMessageSchema = v.strictObject({
  v: v.literal(1),
  kind: v.picklist(DELIVERY_KINDS),
  partnerId: v.pipe(v.string(), v.minLength(1)),
  deliveryId: v.pipe(v.string(), v.minLength(1)),
  attempt: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

export const encodeDeliveryMessage = (c: DeliveryCommand): string =>
  JSON.stringify({ v: 1, kind: c.kind, partnerId: c.partnerId, deliveryId: c.deliveryId, attempt: c.attempt });

/** The command in a message body, or undefined when the body is not one of ours. */
export function decodeDeliveryMessage(body: string): DeliveryCommand | undefined {
  const message = parseMessage(DeliveryMessageSchema, body);
  return message && { kind: message.kind, partnerId: message.partnerId, deliveryId: message.deliveryId, attempt: message.attempt };
}
