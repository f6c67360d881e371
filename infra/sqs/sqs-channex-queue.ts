import type { SQSClient } from '@aws-sdk/client-sqs';
import { createHash } from 'node:crypto';
import type { ChannexChangesQueue } from '../../domain/ports/channex-inbox.ts';
import { sqsSdk } from './client.ts';

/**
 * The Channex changes queue (FIFO): one message group per listing, so a listing's
 * notifications apply in the order Channex sent them, and the request_id as deduplication id.
 */
export class SqsChannexQueue implements ChannexChangesQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string | undefined,
  ) {}

  async send(requestId: string, hotelCode: string): Promise<void> {
    if (!this.queueUrl) throw new Error('CHANNEX_QUEUE_URL is not configured; Channex changes cannot be queued');
    // Group and deduplication ids are at most 128 characters of a restricted set: hashes always fit.
    const { SendMessageCommand } = await sqsSdk();
    const id = (s: string) => createHash('sha256').update(s).digest('hex');
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify({ requestId }),
        MessageGroupId: id(hotelCode),
        MessageDeduplicationId: id(requestId),
      }),
    );
  }
}
