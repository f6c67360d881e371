import {
  digestBody,
  digestKeyFor,
  headsToDigest,
  signedText,
  type AuditDigest,
  type DigestArchive,
  type DigestSigner,
  type HeadRow,
  type SignedDigest,
} from './digest.ts';

export interface DigestDeps {
  readonly heads: { chainHeads(): Promise<HeadRow[]> };
  readonly archive: DigestArchive;
  readonly signer: DigestSigner;
  readonly stage: string;
  readonly now: () => Date;
}

/** How far back the job looks for the previous digest before listing them all (a job that was off for days). */
const RECENT_MS = 2 * 86_400_000;

/**
 * The digest job (hourly, functions/audit/write-audit-digest.ts; `audit digest` by hand): reads
 * every chain's head, keeps those that moved since the previous digest, signs the digest with
 * the previous one's key and signature inside it, and stores it as a new object. The end time
 * is taken before the heads are read, so a head stamped before it is in this digest or, when it
 * commits later, within the next one's overlap.
 */
export async function writeDigest(deps: DigestDeps): Promise<{ key: string; heads: number; previousKey: string | null }> {
  const endTime = deps.now().toISOString();
  const previous = await latestDigest(deps.archive, endTime);
  if (previous && previous.digest.digestEndTime >= endTime)
    throw new Error(`the latest digest ends at ${previous.digest.digestEndTime}, not before ${endTime}: the clock went back`);
  const digest: AuditDigest = {
    version: 1,
    stage: deps.stage,
    digestEndTime: endTime,
    digestKey: digestKeyFor(endTime),
    previousDigestKey: previous?.digest.digestKey ?? null,
    previousDigestSignature: previous?.signature ?? null,
    signingKeyId: deps.signer.keyId,
    heads: headsToDigest(await deps.heads.chainHeads(), previous?.digest.digestEndTime ?? null),
  };
  const signed: SignedDigest = { digest, signature: await deps.signer.sign(signedText(digest)) };
  await deps.archive.putNew(digest.digestKey, digestBody(signed));
  return { key: digest.digestKey, heads: digest.heads.length, previousKey: digest.previousDigestKey };
}

async function latestDigest(archive: DigestArchive, endTime: string): Promise<SignedDigest | null> {
  const recent = await archive.keys(digestKeyFor(new Date(Date.parse(endTime) - RECENT_MS).toISOString()).slice(0, -'.json'.length));
  const key = recent.at(-1) ?? (await archive.keys()).at(-1);
  if (!key) return null;
  const body = await archive.get(key);
  if (body === undefined) throw new Error(`digest ${key} is listed but cannot be read`);
  return JSON.parse(body) as SignedDigest;
}
