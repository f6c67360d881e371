import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { DeleteCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventHash, type AuditEvent } from '../../domain/audit/audit-event.ts';
import { readAnchors, type Anchors, type DigestArchive } from '../../domain/audit/digest.ts';
import { verifyTrail } from '../../domain/audit/verify-trail.ts';
import { writeDigest } from '../../domain/audit/write-digest.ts';
import type { AuditTrail } from '../../domain/ports/audit-trail.ts';
import { digestArchive, digestSigner } from '../../infra/audit-digests.ts';
import type { Services } from '../../infra/container.ts';
import { sha256Hex } from '../../infra/crypto/api-keys.ts';
import { localDigestSigner, newLocalSigningKey } from '../../infra/crypto/digest-signers.ts';
import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { auditEventItem, auditItems } from '../../infra/dynamo/dynamo-audit-trail.ts';
import { keys } from '../../infra/dynamo/keys.ts';
import { createS3Client } from '../../infra/s3/client.ts';
import { S3DigestArchive } from '../../infra/s3/s3-digest-archive.ts';
import { provisionBucket } from '../../scripts/local-stack.ts';
import { testOrigin } from '../support/audit-origin.ts';
import { runAdminTool } from '../support/admin-tool.ts';
import { stack, testServices } from '../support/stack.ts';

/*
 * The audit trail's signed digests (docs/audit.md "Digests") against DynamoDB Local and fauxqs:
 * each tampering the security review found undetected (an event rewritten and its chain
 * re-hashed with the project's own hash, the last event deleted and the head rewound, a head
 * deleted, a whole chain deleted) is made directly in the table, and `audit verify` names it
 * against the latest digest. The shared test table holds other files' chains (some broken on
 * purpose), so the verdicts here are taken over this file's chains.
 */
let svc: Services;
let archive: DigestArchive;
const db = () => createDocumentClient(svc.config);
const mine = new Set<string>();

beforeAll(async () => {
  svc = testServices();
  await provisionBucket(stack().env.S3_ENDPOINT!, svc.config.auditDigests.bucket!);
  archive = await digestArchive(svc.config);
}, 60_000);

/** A chain of `n` events written by the trail's own writer. */
async function chain(n: number): Promise<string> {
  const target = `digest-test:${randomUUID()}`;
  mine.add(target);
  for (let i = 1; i <= n; i++)
    await svc.auditTrail.transact([], {
      id: randomUUID(),
      at: new Date().toISOString(),
      origin: testOrigin(),
      action: 'thing.changed',
      target,
      account: null,
      before: { step: i - 1 },
      after: { step: i },
    });
  return target;
}

const digestNow = async () =>
  writeDigest({ heads: svc.auditTrail, archive, signer: await digestSigner(svc.config), stage: svc.config.stage, now: () => new Date() });

/** The trail and the digests' anchors narrowed to this file's chains. */
async function verdict(opts: { now?: Date; archive?: DigestArchive } = {}) {
  const trail = Object.assign(Object.create(svc.auditTrail) as AuditTrail, {
    chainTargets: async () => (await svc.auditTrail.chainTargets()).filter((t) => mine.has(t)),
  });
  const all = await readAnchors(opts.archive ?? archive, await digestSigner(svc.config));
  const anchors: Anchors = { ...all, heads: new Map([...all.heads].filter(([t]) => mine.has(t))) };
  return verifyTrail(trail, sha256Hex, { anchors, ...opts });
}

/** Rewrites event `seq`'s after-state and re-hashes it and every later event and the head, as someone with table access and the project's code would. */
async function rewriteAndRehash(target: string, seq: number) {
  const { events } = await svc.auditTrail.readChain(target);
  let prevHash = events[seq - 2]?.hash ?? '0'.repeat(64);
  const rewritten: AuditEvent[] = [];
  for (const e of events.slice(seq - 1)) {
    const { hash: _old, ...rest } = e;
    const changed = { ...rest, prevHash, ...(e.seq === seq ? { after: { step: 999 } } : {}) };
    const next = { ...changed, hash: eventHash(changed, sha256Hex) };
    rewritten.push(next);
    prevHash = next.hash;
  }
  for (const e of rewritten) await db().send(new PutCommand({ TableName: svc.config.tableName, Item: auditEventItem(e) }));
  const last = rewritten.at(-1)!;
  await db().send(
    new PutCommand({
      TableName: svc.config.tableName,
      Item: { ...keys.auditHead(target), ...keys.auditChainIndex(target), entity: 'AuditChain', target, seq: last.seq, hash: last.hash, at: last.at },
    }),
  );
}

describe('Audit digests: audit verify against the latest signed digest', () => {
  it('a clean trail verifies against its digests, by the use case and by the admin tool', async () => {
    // prepare
    const target = await chain(3);
    // act
    const first = await digestNow();
    const byTool = await runAdminTool(['audit', 'digest', '--as', 'auditor', '--json']);
    const checked = await runAdminTool(['audit', 'verify', '--target', target, '--json']);
    // assess
    expect(byTool.code, byTool.stderr).toBe(0);
    expect(JSON.parse(byTool.stdout)).toMatchObject({ previousKey: first.key });
    expect(checked.code, checked.stderr).toBe(0);
    expect(JSON.parse(checked.stdout)).toMatchObject({ breaks: [], digestBreaks: [], chains: 1, events: 3 });
    const v = await verdict();
    expect(v.breaks).toEqual([]);
    expect(v.digestBreaks).toEqual([]);
    expect(v.digests).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it("names an event rewritten and re-hashed with the project's own hash function, which the chain alone accepts", async () => {
    // prepare
    const target = await chain(3);
    await digestNow();
    // act
    await rewriteAndRehash(target, 2);
    // assess: the chain holds on its own (what the review found) but not against the digest
    expect((await verifyTrail(svc.auditTrail, sha256Hex, { only: target })).breaks).toEqual([]);
    expect((await verdict()).breaks).toEqual([expect.objectContaining({ target, seq: 3, reason: expect.stringContaining('chain rewritten') })]);
    const tool = await runAdminTool(['audit', 'verify', '--target', target]);
    expect(tool.code).toBe(1);
    expect(tool.stderr).toContain('chain rewritten');
    mine.delete(target);
  }, 120_000);

  it('names a chain whose last event was deleted and whose head was rewound', async () => {
    // prepare
    const target = await chain(3);
    await digestNow();
    const { events } = await svc.auditTrail.readChain(target);
    // act
    await db().send(new DeleteCommand({ TableName: svc.config.tableName, Key: keys.auditEvent(target, 3) }));
    await db().send(
      new PutCommand({
        TableName: svc.config.tableName,
        Item: { ...keys.auditHead(target), ...keys.auditChainIndex(target), entity: 'AuditChain', target, seq: 2, hash: events[1]!.hash, at: events[1]!.at },
      }),
    );
    // assess
    expect((await verifyTrail(svc.auditTrail, sha256Hex, { only: target })).breaks).toEqual([]);
    expect((await verdict()).breaks).toEqual([expect.objectContaining({ target, seq: 3, reason: expect.stringContaining('chain truncated') })]);
    mine.delete(target);
  }, 120_000);

  it('names a chain whose head was deleted (invisible to the head index) and a chain deleted whole', async () => {
    // prepare
    const headless = await chain(2);
    const gone = await chain(2);
    await digestNow();
    // act
    await db().send(new DeleteCommand({ TableName: svc.config.tableName, Key: keys.auditHead(headless) }));
    for (const k of [keys.auditHead(gone), keys.auditEvent(gone, 1), keys.auditEvent(gone, 2)])
      await db().send(new DeleteCommand({ TableName: svc.config.tableName, Key: k }));
    // assess
    expect(await svc.auditTrail.chainTargets()).not.toContain(headless);
    const breaks = (await verdict()).breaks;
    expect(breaks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ target: headless, reason: 'chain head is missing' }),
        expect.objectContaining({ target: gone, reason: expect.stringContaining('chain deleted') }),
      ]),
    );
    expect(breaks).toHaveLength(2);
    mine.delete(headless);
    mine.delete(gone);
  }, 120_000);

  it("refuses to overwrite an event: the writer's condition holds against a second put of the same position", async () => {
    // prepare
    const target = await chain(1);
    const [event] = (await svc.auditTrail.readChain(target)).events;
    // act
    const refused = await db()
      .send(new TransactWriteCommand({ TransactItems: auditItems(svc.config.tableName, { ...event!, after: { step: 999 } }).slice(0, 1) }))
      .catch((err: unknown) => err);
    // assess
    expect(refused).toMatchObject({ name: 'TransactionCanceledException' });
    expect((await svc.auditTrail.readChain(target)).events[0]!.after).toEqual({ step: 1 });
  }, 60_000);

  it('names a digest edited, one signed with another key, one removed between two, and a stale latest digest', async () => {
    // prepare: a bucket of its own, so the stage's digests stay intact for other files' `audit verify`
    await chain(1);
    const bucket = `${svc.config.auditDigests.bucket}-tampered`;
    await provisionBucket(stack().env.S3_ENDPOINT!, bucket);
    const s3 = await createS3Client(svc.config);
    const own = new S3DigestArchive(s3, bucket);
    const ownDigest = async () =>
      writeDigest({ heads: svc.auditTrail, archive: own, signer: await digestSigner(svc.config), stage: svc.config.stage, now: () => new Date() });
    const edited = await ownDigest();
    const removed = await ownDigest();
    const after = await ownDigest();
    const forger = localDigestSigner(newLocalSigningKey());
    // act: fauxqs has no Object Lock, so the local bucket allows what the cloud's refuses
    const body = (await own.get(edited.key))!;
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: edited.key, Body: body.replace('"version":1', '"version":1,"note":"x"') }));
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: removed.key }));
    const forged = await writeDigest({ heads: svc.auditTrail, archive: own, signer: forger, stage: svc.config.stage, now: () => new Date() });
    // assess
    const v = await verdict({ now: new Date(Date.now() + 4 * 3_600_000), archive: own });
    const endOf = (key: string) => key.slice(key.lastIndexOf('/') + 1, -'.json'.length);
    expect(v.digestBreaks).toEqual([
      `digest ${edited.key} does not match its signature (edited or forged)`,
      `digest ${after.key} does not follow ${edited.key} (a digest between them was removed or replaced)`,
      `digest ${forged.key} is signed by ${forger.keyId}, not ${(await digestSigner(svc.config)).keyId}`,
      `the latest valid digest ends at ${endOf(after.key)}: the digest job stopped, or later digests were removed`,
    ]);
  }, 120_000);
});
