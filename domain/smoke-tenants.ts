import { createAgentGroup, createPartner, issueKey, replaceKey, type AdminDeps, type IssuedKey } from './admin.ts';
import type { KeyOwner } from './api-key.ts';
import { ConflictError } from './errors.ts';

/** The pipeline's smoke tenants: a partner, and a group that can read /v1 but never book (no credit, on hold). */
export const SMOKE_TENANT_ID = 'pipeline-smoke';

export interface SmokeKeys {
  readonly smokePartnerKey: string;
  readonly smokePartnerKeyId: string;
  readonly smokeGroupKey: string;
  readonly smokeGroupKeyId: string;
}

async function unlessExists(create: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
  }
}

/** A fresh key for the owner; the previous smoke key, while still active, is revoked in the same write. */
async function smokeKey(deps: AdminDeps, owner: KeyOwner, previousKeyId: string | undefined): Promise<IssuedKey> {
  if (previousKeyId && (await deps.tenants.getKey(previousKeyId))?.status === 'ACTIVE') return replaceKey(deps, previousKeyId);
  return issueKey(deps, { owner, label: 'pipeline smoke check', rateLimit: null });
}

/**
 * Creates the smoke partner and group when missing and issues their keys, replacing the
 * previous smoke keys (so a rerun never leaves an old smoke key working).
 */
export async function provisionSmokeTenants(
  deps: AdminDeps,
  previous: { partnerKeyId?: string; groupKeyId?: string },
  id = SMOKE_TENANT_ID,
): Promise<SmokeKeys> {
  await unlessExists(() => createPartner(deps, { partnerId: id, name: 'Pipeline smoke check', channelId: id }));
  await unlessExists(() =>
    createAgentGroup(deps, {
      agentGroupId: id,
      partnerId: id,
      name: 'Pipeline smoke check',
      channelId: id,
      creditLimit: 0,
      onHold: true,
      distributionEnabled: true,
      billingCycle: 'MONTHLY',
      billingAnchorDay: 1,
      gstin: null,
      legalName: 'Pipeline smoke check (not a customer)',
      address: { line1: 'n/a', city: 'Mumbai', state: 'Maharashtra', postalCode: '400001', country: 'IN' },
    }),
  );
  const partner = await smokeKey(deps, { kind: 'partner', id }, previous.partnerKeyId);
  const group = await smokeKey(deps, { kind: 'agent-group', id }, previous.groupKeyId);
  return { smokePartnerKey: partner.apiKey, smokePartnerKeyId: partner.record.keyId, smokeGroupKey: group.apiKey, smokeGroupKeyId: group.record.keyId };
}
