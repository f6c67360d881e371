import type { SQSClient } from '@aws-sdk/client-sqs';
import { sqsSdk } from './client.ts';
import { MAX_QUEUE_DELAY_SECONDS } from '../../domain/deliveries/schedule.ts';
import type { BookingCheck, BookingQueue } from '../../domain/ports/booking-store.ts';
import { encodeBookingCheck } from '../../events/booking-check-message.ts';
import { logger } from '../logger.ts';

/** The booking workflow queue on SQS. */
export class SqsBookingQueue implements BookingQueue {
  constructor(
    private readonly sqs: SQSClient,
    /** Undefined where the stack has no queue configured (tools that never start a workflow). */
    private readonly queueUrl: string | undefined,
  ) {}

  async send(check: BookingCheck, delaySeconds: number): Promise<void> {
    if (!this.queueUrl) throw new Error('BOOKING_QUEUE_URL is not configured; booking checks cannot be queued');
    try {
      const { SendMessageCommand } = await sqsSdk();
      await this.sqs.send(
        new SendMessageCommand({
          QueueUrl: this.queueUrl,
          MessageBody: encodeBookingCheck(check),
          DelaySeconds: Math.max(0, Math.min(MAX_QUEUE_DELAY_SECONDS, Math.ceil(delaySeconds))),
        }),
      );
    } catch (err) {
      // The booking is durable with its nextCheckAt; the sweeper finds it overdue and looks at it (counted as OverdueBookings).
      // Logged at ERROR all the same: a hop that waits for the sweeper is a minute late, and every stage's log should say why.
      logger.error('booking check not queued', { bookingRef: check.bookingRef, error: (err as Error).name });
    }
  }
}
