import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../domain/api-key.ts';
import { ConflictError } from '../../domain/errors.ts';
import type { AgentGroup, Partner } from '../../domain/tenants.ts';
import { cryptoKeyMinter } from '../../infra/crypto/key-minter.ts';
import { testServices, uniqueId } from '../support/stack.ts';

const AT = '2026-01-15T10:00:00.000Z';
const LATER = '2026-01-16T10:00:00.000Z';

const partner = (overrides: Partial<Partner> = {}): Partner => ({
  partnerId: uniqueId('partner'),
  name: 'Directory Test Partner',
  channelId: 'test-channel',
  createdAt: AT,
  updatedAt: AT,
  ...overrides,
});

const agentGroup = (partnerId: string, overrides: Partial<AgentGroup> = {}): AgentGroup => ({
  agentGroupId: uniqueId('group'),
  partnerId,
  name: 'Directory Test Agents',
  channelId: 'test-channel',
  creditLimit: 10_000_00,
  onHold: false,
  distributionEnabled: true,
  billingCycle: 'MONTHLY',
  billingAnchorDay: 1,
  gstin: null,
  legalName: 'Directory Test Agents Pvt Ltd',
  address: { line1: '1 Test Road', city: 'Pune', state: 'Maharashtra', postalCode: '411001', country: 'IN' },
  createdAt: AT,
  updatedAt: AT,
  ...overrides,
});

/** A key record for a fresh key of `partnerId`; returns the plaintext beside it. */
function keyRecord(partnerId: string): { apiKey: string; record: ApiKeyRecord } {
  const apiKey = cryptoKeyMinter.newApiKey();
  return {
    apiKey,
    record: {
      keyId: cryptoKeyMinter.newKeyId(),
      keyHash: cryptoKeyMinter.hash(apiKey),
      keyPrefix: apiKey.slice(0, 12),
      owner: { kind: 'partner', id: partnerId },
      status: 'ACTIVE',
      label: null,
      rateLimit: null,
      createdAt: AT,
      revokedAt: null,
    },
  };
}

/** A partner stored with one active key. */
async function partnerWithKey(): Promise<{ partnerId: string; record: ApiKeyRecord }> {
  const tenants = testServices().tenants;
  const p = partner();
  await tenants.createPartner(p);
  const { record } = keyRecord(p.partnerId);
  await tenants.createKey(record);
  return { partnerId: p.partnerId, record };
}

describe('DynamoTenantDirectory', () => {
  describe('create', () => {
    it('refuses a second partner with the same id and keeps the first', async () => {
      // prepare
      const tenants = testServices().tenants;
      const first = partner();
      await tenants.createPartner(first);

      // act
      const second = tenants.createPartner({ ...first, name: 'Impostor' });

      // assess
      await expect(second).rejects.toBeInstanceOf(ConflictError);
      expect((await tenants.getPartner(first.partnerId))?.name).toBe('Directory Test Partner');
    });

    it('refuses a second agent group with the same id', async () => {
      const tenants = testServices().tenants;
      const p = partner();
      await tenants.createPartner(p);
      const group = agentGroup(p.partnerId);
      await tenants.createAgentGroup(group);

      await expect(tenants.createAgentGroup({ ...group, name: 'Impostor' })).rejects.toMatchObject({ code: 'CONFLICT' });
    });

    it('refuses the same key hash twice', async () => {
      const tenants = testServices().tenants;
      const { partnerId, record } = await partnerWithKey();

      const again = tenants.createKey({ ...keyRecord(partnerId).record, keyHash: record.keyHash });

      await expect(again).rejects.toBeInstanceOf(ConflictError);
    });

    it('reads back what it stored, without table keys', async () => {
      const tenants = testServices().tenants;
      const p = partner();
      await tenants.createPartner(p);
      const group = agentGroup(p.partnerId);
      await tenants.createAgentGroup(group);

      expect(await tenants.getPartner(p.partnerId)).toEqual(p);
      expect(await tenants.getAgentGroup(group.agentGroupId)).toEqual(group);
    });
  });

  describe('revokeKey', () => {
    it('revokes a key so that lookups by hash see it revoked', async () => {
      const tenants = testServices().tenants;
      const { record } = await partnerWithKey();

      await tenants.revokeKey(record.keyId, LATER);

      expect(await tenants.findKeyByHash(record.keyHash)).toMatchObject({ keyId: record.keyId, status: 'REVOKED', revokedAt: LATER });
    });

    it('is idempotent and keeps the first revocation time', async () => {
      // prepare
      const tenants = testServices().tenants;
      const { record } = await partnerWithKey();
      await tenants.revokeKey(record.keyId, AT);

      // act
      const again = await tenants.revokeKey(record.keyId, LATER);

      // assess
      expect(again).toMatchObject({ status: 'REVOKED', revokedAt: AT });
      expect(await tenants.findKeyByHash(record.keyHash)).toMatchObject({ status: 'REVOKED', revokedAt: AT });
    });

    it('answers undefined for a key id that does not exist', async () => {
      expect(await testServices().tenants.revokeKey('key_doesnotexist00000', AT)).toBeUndefined();
    });
  });

  describe('replaceKey', () => {
    it('stores the new key active and revokes the old one', async () => {
      // prepare
      const tenants = testServices().tenants;
      const { partnerId, record: old } = await partnerWithKey();
      const { record: replacement } = keyRecord(partnerId);

      // act
      await tenants.replaceKey(old.keyId, replacement, LATER);

      // assess
      expect(await tenants.findKeyByHash(old.keyHash)).toMatchObject({ status: 'REVOKED', revokedAt: LATER });
      expect(await tenants.findKeyByHash(replacement.keyHash)).toEqual(replacement);
      expect((await tenants.listKeys({ kind: 'partner', id: partnerId })).map((k) => k.keyId).sort()).toEqual([old.keyId, replacement.keyId].sort());
    });

    it('changes nothing when the new key cannot be stored: the old key stays active', async () => {
      // prepare: the replacement collides with a key already stored
      const tenants = testServices().tenants;
      const { record: old } = await partnerWithKey();
      const { partnerId: other, record: taken } = await partnerWithKey();
      const colliding = { ...keyRecord(other).record, keyHash: taken.keyHash };

      // act
      const attempt = tenants.replaceKey(old.keyId, colliding, LATER);

      // assess
      await expect(attempt).rejects.toBeInstanceOf(ConflictError);
      expect(await tenants.findKeyByHash(old.keyHash)).toMatchObject({ status: 'ACTIVE', revokedAt: null });
      expect(await tenants.getKey(colliding.keyId)).toBeUndefined();
    });

    it('refuses to replace a key that does not exist', async () => {
      const tenants = testServices().tenants;
      const { partnerId } = await partnerWithKey();

      await expect(tenants.replaceKey('key_doesnotexist00000', keyRecord(partnerId).record, LATER)).rejects.toBeInstanceOf(ConflictError);
    });
  });
});
