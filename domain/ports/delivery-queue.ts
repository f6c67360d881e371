import type { DeliveryKind } from '../deliveries/delivery.ts';

/** The only thing the queue carries: attempt `attempt` of delivery `deliveryId` is due. */
export interface DeliveryCommand {
  readonly kind: DeliveryKind;
  readonly partnerId: string;
  readonly deliveryId: string;
  readonly attempt: number;
}

export interface QueuedCommand {
  readonly command: DeliveryCommand;
  /** 0–900 (the SQS limit); longer waits are chained by the worker. */
  readonly delaySeconds: number;
}

export interface DeliveryQueue {
  /**
   * Queues the commands and returns how many could not be queued. A command that was not
   * queued is not lost: its delivery stays PENDING and the sweeper re-queues it.
   */
  send(commands: readonly QueuedCommand[]): Promise<{ readonly failed: number }>;
}
