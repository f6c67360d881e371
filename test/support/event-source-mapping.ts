import { ChangeMessageVisibilityBatchCommand, DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';

export interface EventSourceMapping {
  /** Lets each lane finish the batch in its hands, then stops polling. */
  stop(): Promise<void>;
  /** Batches handed to the handler so far. */
  readonly invocations: () => number;
}

/**
 * An SQS trigger as Lambda runs one with ReportBatchItemFailures, `concurrency` invocations
 * at most at once: each lane receives a batch, calls the handler, and deletes only the
 * records it did not report as failed (none when it throws), so the others come back after
 * the visibility timeout and, past the queue's maxReceiveCount, go to its dead-letter queue.
 * serverless-offline-sqs deletes every message of a batch whatever the handler answers and
 * runs one batch at a time, so tests of redelivery, of the dead-letter queue and of several
 * workers at once drive the worker's handler through this instead (and the billing bench
 * measures its 4 workers with it). A receive that fails (an emulator paused or restarting)
 * is tried again after a short wait, as the service's poller does.
 *
 * A deployed queue's visibility timeout is longer than its function's timeout, so a message
 * never comes back while its invocation still runs. Test queues keep a short one (a failed
 * message returns in seconds), so while an invocation runs the mapping keeps its messages
 * invisible, for at most `invocationTimeoutMs` (the function's timeout): past it the
 * invocation counts as timed out, as Lambda ends one, its lane moves on and its messages
 * return. Without this a run slowed by a loaded machine past the test queue's visibility was
 * delivered again while it ran and could be dead-lettered though it billed.
 */
export function startEventSourceMapping(opts: {
  readonly sqs: SQSClient;
  readonly queueUrl: string;
  readonly concurrency: number;
  readonly batchSize?: number;
  readonly handler: (event: SQSEvent) => Promise<SQSBatchResponse | void>;
  /** The queue's visibility timeout, renewed at half of it while an invocation runs. */
  readonly visibilitySeconds: number;
  readonly invocationTimeoutMs?: number;
}): EventSourceMapping {
  const timeoutMs = opts.invocationTimeoutMs ?? 60_000;
  const keepInvisible = (messages: Message[]) =>
    opts.sqs
      .send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: opts.queueUrl,
          Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: opts.visibilitySeconds })),
        }),
      )
      // A renewal lost to an outage only means the message may come back early, which the worker takes anyway.
      .catch(() => undefined);
  /** The handler's answer, or every record failed when it throws or outlives the function's timeout. */
  const invoke = async (event: SQSEvent, messages: Message[]): Promise<Set<string>> => {
    const all = () => new Set(messages.map((m) => m.MessageId!));
    const renew = setInterval(() => void keepInvisible(messages), (opts.visibilitySeconds * 1000) / 2);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<Set<string>>((resolve) => (timer = setTimeout(() => resolve(all()), timeoutMs)));
    try {
      const answered = opts.handler(event).then((r) => new Set((r ?? { batchItemFailures: [] }).batchItemFailures.map((f) => f.itemIdentifier)), all);
      return await Promise.race([answered, timedOut]);
    } finally {
      clearInterval(renew);
      clearTimeout(timer);
    }
  };
  let stopped = false;
  let invocations = 0;
  const lane = async () => {
    while (!stopped) {
      let messages;
      try {
        messages =
          (
            await opts.sqs.send(
              new ReceiveMessageCommand({
                QueueUrl: opts.queueUrl,
                MaxNumberOfMessages: opts.batchSize ?? 1,
                WaitTimeSeconds: 1,
                MessageSystemAttributeNames: ['ApproximateReceiveCount'],
              }),
            )
          ).Messages ?? [];
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      if (messages.length === 0) continue;
      const event: SQSEvent = {
        Records: messages.map((m) => ({
          messageId: m.MessageId!,
          receiptHandle: m.ReceiptHandle!,
          body: m.Body ?? '',
          attributes: {
            ApproximateReceiveCount: m.Attributes?.ApproximateReceiveCount ?? '1',
            SentTimestamp: '',
            SenderId: '',
            ApproximateFirstReceiveTimestamp: '',
          },
          messageAttributes: {},
          md5OfBody: m.MD5OfBody ?? '',
          eventSource: 'aws:sqs',
          eventSourceARN: 'arn:aws:sqs:ap-south-1:000000000000:local',
          awsRegion: 'ap-south-1',
        })),
      };
      invocations++;
      const failed = await invoke(event, messages);
      const done = messages.filter((m) => !failed.has(m.MessageId!));
      if (done.length === 0) continue;
      await opts.sqs
        .send(new DeleteMessageBatchCommand({ QueueUrl: opts.queueUrl, Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }))
        // A delete lost to an outage only means the message comes back: the worker must take a redelivery anyway.
        .catch(() => undefined);
    }
  };
  const lanes = Array.from({ length: opts.concurrency }, lane);
  return {
    stop: async () => {
      stopped = true;
      await Promise.all(lanes);
    },
    invocations: () => invocations,
  };
}
