import { defineFunction } from '../../infra/deploy/function-manifest.ts';

/**
 * Hourly: signs a digest of the audit chains' heads into the write-once digest bucket (docs/audit.md "Digests").
 * Local stages only (empty in the cloud, which signs with KMS): the key is given to this function alone.
 */
export default defineFunction({
  handler: 'functions/audit/write-audit-digest.handler',
  timeout: 300,
  environment: { AUDIT_SIGNING_KEY: '${param:auditSigningKey}' },
  events: [{ schedule: { rate: 'rate(1 hour)', enabled: '${param:schedulesEnabled}' } }],
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['writeAuditDigests', 'signAuditDigests', 'storeAuditDigests'],
});
