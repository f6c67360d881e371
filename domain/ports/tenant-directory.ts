import type { AuditDraft } from '../audit/audit-event.ts';
import type { ApiKeyRecord, KeyOwner } from '../api-key.ts';
import type { AgentGroup, Partner } from '../tenants.ts';

/** What an operator may change on an existing agent group. */
export type AgentGroupChanges = Partial<
  Pick<AgentGroup, 'name' | 'creditLimit' | 'onHold' | 'distributionEnabled' | 'gstin' | 'legalName' | 'address' | 'paymentTermsDays' | 'overdueHoldDays'>
>;

/** A group's new callback signing secret, sealed, written in the same transaction as the key it comes with. */
export interface SealedCallbackSecret {
  readonly agentGroupId: string;
  readonly sealed: string;
}

/** Partners, agent groups and the keys that open them. */
export interface TenantDirectory {
  getPartner(partnerId: string): Promise<Partner | undefined>;
  getAgentGroup(agentGroupId: string): Promise<AgentGroup | undefined>;
  listPartners(): Promise<Partner[]>;
  listAgentGroups(partnerId?: string): Promise<AgentGroup[]>;
  /** Fails with ConflictError when the id is taken. */
  /** Every write below takes the operator's audit event, written in the same transaction (docs/audit.md); bulk imports and test fixtures pass none. */
  createPartner(p: Partner, audit?: AuditDraft): Promise<void>;
  createAgentGroup(g: AgentGroup, audit?: AuditDraft): Promise<void>;
  /** Writes or overwrites (world import is idempotent). */
  putPartner(p: Partner): Promise<void>;
  putAgentGroup(g: AgentGroup): Promise<void>;
  /**
   * Sets only the given fields (and updatedAt), leaving every other attribute of the group
   * untouched. Returns the group as stored afterwards, or undefined when it does not exist
   * (nothing is created).
   */
  updateAgentGroup(agentGroupId: string, changes: AgentGroupChanges, at: string, audit?: AuditDraft): Promise<AgentGroup | undefined>;

  findKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  getKey(keyId: string): Promise<ApiKeyRecord | undefined>;
  listKeys(owner: KeyOwner): Promise<ApiKeyRecord[]>;
  /** Every key whose shown prefix starts with `prefix`. An operator's look-up: it reads the whole key set. */
  findKeysByPrefix(prefix: string): Promise<ApiKeyRecord[]>;
  /** Fails with ConflictError when the hash is already stored (same key twice). */
  createKey(k: ApiKeyRecord, callbackSecret?: SealedCallbackSecret, audit?: AuditDraft): Promise<void>;
  /** Idempotent: revoking a revoked key keeps its first revocation time. */
  revokeKey(keyId: string, at: string, audit?: AuditDraft): Promise<ApiKeyRecord | undefined>;
  /** New key issued and old one revoked in one transaction. */
  replaceKey(oldKeyId: string, replacement: ApiKeyRecord, at: string, callbackSecret?: SealedCallbackSecret, audit?: AuditDraft): Promise<void>;
  /** Stores the group's callback signing secret (already encrypted). */
  putCallbackSecret(agentGroupId: string, encrypted: string, at: string): Promise<void>;
  /** The group's callback signing secret, still encrypted; undefined when none was ever issued. */
  getCallbackSecret(agentGroupId: string): Promise<string | undefined>;
}
