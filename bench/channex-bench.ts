import { operatorOrigin } from '../domain/audit/audit-event.ts';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { addDays } from '../domain/catalogue/calendar.ts';
import { indiaToday } from '../domain/reads/date-window.ts';
import { fixtureWorld } from '../test/support/catalogue-fixture.ts';
import { httpEvent, lambdaContext } from './harness.ts';
import { seeding } from './seeding.ts';

/**
 * The Channex changes bench (docs/channel-manager.md, "Measured"): one changes notification
 * of 500 nights × 20 room types — a per-night availability and a per-night restriction with
 * two occupancy rates for every room and night (20,000 changes, prices differing night to
 * night so nothing collapses into ranges) — acknowledged by the changes/ handler, then
 * applied by the queue worker through the catalogue sync. In-process handlers against
 * DynamoDB Local and fauxqs on this machine: `npx tsx bench/channex-bench.ts`.
 */
const NIGHTS = Number(process.env.BENCH_NIGHTS ?? 500);
const ROOMS = 20;

const {
  provisionTable,
  provisionBucket,
  provisionQueues,
  channexQueueName,
  invoiceBucketName,
  webhookQueueName,
  serviceEnv,
  startDynamoLocal,
  startFauxqsProcess,
  freePort,
  LOCAL_CREDENTIALS,
} = await import('../scripts/local-stack.ts');
const dynamo = await startDynamoLocal();
// S3 and SQS in their own process, as they are in AWS: storing the 5 MB body must not cost the handler fauxqs's own parsing.
const queues = await startFauxqsProcess({ port: await freePort(), dataDir: mkdtempSync(join(tmpdir(), 'chx-bench-')) });
try {
  const table = 'pds-channex-bench';
  await provisionTable(dynamo.endpoint, table);
  await provisionBucket(queues.endpoint, invoiceBucketName('test'));
  const urls = await provisionQueues(queues.endpoint, [channexQueueName('test'), webhookQueueName('test')]);
  const env = serviceEnv({
    stage: 'test',
    tableName: table,
    dynamodb: dynamo.endpoint,
    sqs: queues.endpoint,
    extra: {
      LOG_LEVEL: 'ERROR',
      AWS_CONNECT_TIMEOUT_MS: '10000',
      AWS_REQUEST_TIMEOUT_MS: '20000',
      AWS_MAX_ATTEMPTS: '3',
      CHANNEX_QUEUE_URL: urls[channexQueueName('test')]!,
      WEBHOOK_QUEUE_URL: urls[webhookQueueName('test')]!,
    },
  });
  Object.assign(process.env, env);
  const { services, adminDeps } = await import('../infra/container.ts');
  const { importWorld } = await import('../domain/world/import-world.ts');
  const svc = services();

  const from = addDays(indiaToday(new Date()), 1);
  const to = addDays(from, NIGHTS - 1);
  const { ids, ...world } = fixtureWorld('chxbench');
  const base = world.catalogue!.listings![0]!;
  // Connected to Channex: its key reaches no other listing.
  const listing = {
    ...base,
    id: 'chx-bench',
    simulator: { mode: 'CONFIRM_IMMEDIATELY' as const, channelManager: 'channex' as const },
    properties: Array.from({ length: ROOMS }, (_, i) => ({ ...base.properties![0]!, id: `chx-bench-r${i}`, quantity: 20, applicableAdult: 2 })),
  };
  await importWorld(
    { ...adminDeps(await seeding(svc), operatorOrigin('bench', 'seed')), catalogue: (await seeding(svc)).catalogue },
    {
      ...world,
      catalogue: {
        ...world.catalogue,
        listings: [listing],
        inventory: listing.properties.map((p) => ({ propertyId: p.id, from, to, quantity: 10 })),
        rates: [],
      },
    },
    { allowPlaintextKeys: true },
  );
  void ids;

  const changes = listing.properties.flatMap((p) =>
    Array.from({ length: NIGHTS }, (_, n) => {
      const date = addDays(from, n);
      return [
        { type: 'availability_changes', attributes: { room_type_id: p.id, rate_plan_id: null, date_from: date, date_to: date, availability: (n % 9) + 1 } },
        {
          type: 'restriction_changes',
          attributes: {
            room_type_id: p.id,
            rate_plan_id: `${p.id}:EP`,
            date_from: date,
            date_to: date,
            rates: [
              { rate: `${4000 + n}.00`, currency: 'INR', fraction_size: 2, occupancy: 1 },
              { rate: `${5000 + n}.00`, currency: 'INR', fraction_size: 2, occupancy: 2 },
            ],
            stop_sell: false,
            min_stay_through: 1,
            max_stay: 0,
          },
        },
      ];
    }).flat(),
  );
  const requestId = randomUUID();
  const body = JSON.stringify({ data: [{ type: 'changes_notification', attributes: { request_id: requestId, hotel_code: listing.id, changes } }] });

  const changesHandler = (await import('../functions/channel-manager/changes.ts')).handler as unknown as (
    e: unknown,
    c: unknown,
  ) => Promise<{ statusCode: number; body: string }>;
  const worker = (await import('../functions/workers/channex-changes.ts')).handler;
  // A warm function, as Channex's steady pushes meet it: a few small pushes first (one night of every room type each).
  for (const night of [0, 1, 2]) {
    const small = changes.filter((c) => c.attributes.date_from === addDays(from, night));
    await changesHandler(
      httpEvent('POST', '/channel-manager/channex/changes/', {
        headers: { 'api-key': env.CHANNEX_INBOUND_API_KEY! },
        body: JSON.stringify({ data: [{ type: 'changes_notification', attributes: { request_id: randomUUID(), hotel_code: listing.id, changes: small } }] }),
      }),
      lambdaContext,
    );
  }

  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const ack = await changesHandler(
    httpEvent('POST', '/channel-manager/channex/changes/', { headers: { 'api-key': env.CHANNEX_INBOUND_API_KEY! }, body }),
    lambdaContext,
  );
  const ackMs = performance.now() - t0;
  // The handler's own CPU (S3/SQS and DynamoDB run in other processes): what the answer costs on an idle core.
  const ackCpu = process.cpuUsage(cpu0);
  const ackCpuMs = (ackCpu.user + ackCpu.system) / 1000;
  if (ack.statusCode !== 200) throw new Error(`ack ${ack.statusCode} ${ack.body}`);

  const sqs = new SQSClient({ endpoint: queues.endpoint, region: 'ap-south-1', credentials: LOCAL_CREDENTIALS });
  const t1 = performance.now();
  let applied = false;
  while (!applied) {
    const got = await sqs.send(new ReceiveMessageCommand({ QueueUrl: urls[channexQueueName('test')]!, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    const messages = got.Messages ?? [];
    if (messages.length === 0) continue;
    const { batchItemFailures } = await worker({ Records: messages.map((m) => ({ messageId: m.MessageId!, body: m.Body! })) } as unknown as SQSEvent);
    // As Lambda's event source mapping does: what the worker did not report failed is deleted.
    // Left in flight, a FIFO message holds back every later message of its group (the listing).
    const failed = new Set(batchItemFailures.map((f) => f.itemIdentifier));
    const done = messages.filter((m) => !failed.has(m.MessageId!));
    if (done.length > 0)
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: urls[channexQueueName('test')]!,
          Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
        }),
      );
    applied = (await svc.channexInbox.get(requestId))?.status === 'APPLIED';
  }
  const applyMs = performance.now() - t1;
  sqs.destroy();
  const record = await svc.channexInbox.get(requestId);
  console.log(
    `Channex changes: ${NIGHTS} nights × ${ROOMS} room types (${changes.length} changes, ${(Buffer.byteLength(body) / 1e6).toFixed(2)} MB): ` +
      `acknowledged in ${ackMs.toFixed(0)} ms (${ackCpuMs.toFixed(0)} ms of the handler's CPU), applied ${(applyMs / 1000).toFixed(1)} s after (${record?.nights} nights written through the sync, ${record?.events} events).`,
  );
} finally {
  await queues.stop();
  await dynamo.stop();
}
