import { writeDigest } from '../../domain/audit/write-digest.ts';
import { digestArchive, digestSigner } from '../../infra/audit-digests.ts';
import { services } from '../../infra/compose/core.ts';
import { logger } from '../../infra/logger.ts';

/**
 * Hourly (docs/audit.md "Digests"): signs a digest of every audit chain head that moved since the
 * previous digest and stores it write-once. The only function whose role may use the signing key
 * (kms:Sign) or write the digest bucket. A failure is logged and alarmed
 * (audit-digest-failed); the next run covers what this one missed (its heads moved after the
 * previous digest, which is all a digest compares against).
 */
export const handler = async () => {
  const svc = services();
  const out = await writeDigest({
    heads: svc.auditTrail,
    archive: await digestArchive(svc.config),
    signer: await digestSigner(svc.config),
    stage: svc.config.stage,
    now: () => new Date(),
  });
  logger.info('audit digest written', { ...out });
  return out;
};
