import type { DigestArchive, DigestSigner } from '../domain/audit/digest.ts';
import type { Config } from './config.ts';

/** The digests' signer this stage is configured with: KMS in the cloud, the local key on local stages. */
export async function digestSigner(cfg: Pick<Config, 'region' | 'auditDigests'>): Promise<DigestSigner> {
  const { kmsKeyId, localKey } = cfg.auditDigests;
  if (kmsKeyId) return (await import('./crypto/digest-signers.ts')).kmsDigestSigner(cfg.region, kmsKeyId);
  if (localKey) return (await import('./crypto/digest-signers.ts')).localDigestSigner(localKey);
  throw new Error('Neither AUDIT_SIGNING_KEY_ID nor AUDIT_SIGNING_KEY is configured for this process');
}

/** The digests' write-once bucket. */
export async function digestArchive(cfg: Pick<Config, 'region' | 'endpoints' | 'auditDigests'>): Promise<DigestArchive> {
  const [{ createS3Client }, { S3DigestArchive }] = await Promise.all([import('./s3/client.ts'), import('./s3/s3-digest-archive.ts')]);
  return new S3DigestArchive(await createS3Client(cfg), cfg.auditDigests.bucket);
}
