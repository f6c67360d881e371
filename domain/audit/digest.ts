import { canonicalJson } from '../ledger/request-hash.ts';

/*
 * Signed digests of the audit trail's chain heads (docs/audit.md "Digests"), in the way AWS
 * CloudTrail's log file integrity validation anchors its logs: every period a job writes a
 * digest naming where each chain that moved stands (position and hash), signed with a key no
 * writer of the trail can use, and holding the previous digest's object key and signature, so
 * the digests form a chain of their own. Each event's hash covers its predecessor's, so a
 * digested head's hash commits to its whole chain up to that position: rewriting an event and
 * re-hashing its successors, cutting the chain short, or deleting it no longer matches.
 */

/** Where one chain stood when the digest was taken. */
export interface DigestHead {
  readonly target: string;
  readonly seq: number;
  readonly hash: string;
}

export interface AuditDigest {
  readonly version: 1;
  readonly stage: string;
  /** When the heads were read: heads that moved before this are in this digest or an earlier one. */
  readonly digestEndTime: string;
  /** The object this digest is stored as: a digest copied elsewhere no longer verifies. */
  readonly digestKey: string;
  readonly previousDigestKey: string | null;
  readonly previousDigestSignature: string | null;
  /** The key that signed (a KMS key ARN in AWS; `local:<fingerprint>` on local stages). */
  readonly signingKeyId: string;
  /** The heads that moved since the previous digest (every head in the first), by target. */
  readonly heads: readonly DigestHead[];
}

export interface SignedDigest {
  readonly digest: AuditDigest;
  /** Hex of the signature over `signedText(digest)`. */
  readonly signature: string;
}

/**
 * Signs digests. Only the digest job holds a signer that can sign (kms:Sign on one function's
 * role); `audit verify` needs only the public half.
 */
export interface DigestSigner {
  readonly keyId: string;
  sign(message: Uint8Array): Promise<string>;
  verify(message: Uint8Array, signatureHex: string): Promise<boolean>;
}

/** Where digests are kept: write-once (S3 Object Lock in compliance mode in AWS). */
export interface DigestArchive {
  /** Stores a new object; an existing key is refused, never replaced. */
  putNew(key: string, body: string): Promise<void>;
  /** Every digest key, oldest first (keys sort by time), optionally only those after `startAfter`. */
  keys(startAfter?: string): Promise<string[]>;
  get(key: string): Promise<string | undefined>;
}

/** A chain's head as the trail's index holds it, with the instant of its last event. */
export interface HeadRow extends DigestHead {
  readonly at: string;
}

/**
 * How far before the previous digest's end a head may have been stamped and still be missing
 * from it: an event's instant is taken before its transaction commits, and no writer (a
 * function, at most 15 minutes; the admin tool's single writes) takes longer than this between
 * the two. Heads in the overlap are digested twice, which costs nothing.
 */
export const DIGEST_OVERLAP_MS = 60 * 60_000;

/** A digest older than this when `audit verify` runs means the job stopped or a digest was removed. */
export const DIGEST_STALE_MS = 3 * 60 * 60_000;

export const DIGEST_PREFIX = 'audit-digests/';

/** Keys sort by time: `audit-digests/<yyyy>/<mm>/<dd>/<end instant>.json`. */
export const digestKeyFor = (endTime: string): string =>
  `${DIGEST_PREFIX}${endTime.slice(0, 4)}/${endTime.slice(5, 7)}/${endTime.slice(8, 10)}/${endTime}.json`;

/** The bytes the signature covers: every field of the digest, canonically ordered. */
export const signedText = (digest: AuditDigest): Uint8Array => new TextEncoder().encode(canonicalJson(digest));

export const digestBody = (signed: SignedDigest): string => canonicalJson(signed);

/** The heads a new digest names: those stamped since (just before) the previous digest's end; all when there is none. */
export function headsToDigest(rows: readonly HeadRow[], previousEnd: string | null): DigestHead[] {
  const since = previousEnd ? new Date(Date.parse(previousEnd) - DIGEST_OVERLAP_MS).toISOString() : null;
  return rows
    .filter((r) => since === null || r.at >= since)
    .map(({ target, seq, hash }) => ({ target, seq, hash }))
    .sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
}

/** What the digests say, checked: the furthest digested head of each chain and any break in the digests themselves. */
export interface Anchors {
  readonly heads: ReadonlyMap<string, DigestHead & { readonly digestKey: string }>;
  readonly digests: number;
  readonly latestEndTime: string | null;
  /** Problems with the digests: a bad signature, a broken link, one moved or signed by another key. */
  readonly breaks: readonly string[];
}

/**
 * Reads every digest oldest first and checks each as CloudTrail's validation does: its
 * signature, that it is stored where it says, and that it names the previous digest's key and
 * signature. A digest that fails is reported and its heads are not trusted.
 */
export async function readAnchors(archive: DigestArchive, signer: DigestSigner): Promise<Anchors> {
  const heads = new Map<string, DigestHead & { digestKey: string }>();
  const breaks: string[] = [];
  let previous: { key: string; signature: string } | null = null;
  let latestEndTime: string | null = null;
  const keys = await archive.keys();
  for (const key of keys) {
    const body = await archive.get(key);
    const signed = body === undefined ? undefined : parseSigned(body);
    if (!signed) {
      breaks.push(`digest ${key} is unreadable`);
      previous = { key, signature: '' };
      continue;
    }
    const { digest, signature } = signed;
    // A digest that is not what the key signed, where it says, is not trusted; one that is but
    // does not name its predecessor is authentic, and says a digest before it is missing.
    const forged =
      digest.digestKey !== key
        ? `digest ${key} says it is ${digest.digestKey} (moved)`
        : digest.signingKeyId !== signer.keyId
          ? `digest ${key} is signed by ${digest.signingKeyId}, not ${signer.keyId}`
          : !(await signer.verify(signedText(digest), signature))
            ? `digest ${key} does not match its signature (edited or forged)`
            : null;
    const unlinked =
      forged === null && previous && (digest.previousDigestKey !== previous.key || digest.previousDigestSignature !== previous.signature)
        ? `digest ${key} does not follow ${previous.key} (a digest between them was removed or replaced)`
        : forged === null && !previous && (digest.previousDigestKey !== null || digest.previousDigestSignature !== null)
          ? `digest ${key} follows ${digest.previousDigestKey}, which is missing`
          : null;
    for (const problem of [forged, unlinked]) if (problem) breaks.push(problem);
    previous = { key, signature };
    if (forged) continue;
    latestEndTime = digest.digestEndTime;
    for (const h of digest.heads) {
      const known = heads.get(h.target);
      if (!known || h.seq >= known.seq) heads.set(h.target, { ...h, digestKey: key });
    }
  }
  return { heads, digests: keys.length, latestEndTime, breaks };
}

function parseSigned(body: string): SignedDigest | undefined {
  try {
    const parsed = JSON.parse(body) as SignedDigest;
    return parsed && typeof parsed.signature === 'string' && parsed.digest && Array.isArray(parsed.digest.heads) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
