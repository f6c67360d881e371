import type { AuditDraft, AuditFields, AuditOrigin } from './audit/audit-event.ts';
import type { IdGenerator } from './ports/ids.ts';
import { KEY_PREFIX_LENGTH, keyPrefixOf, type ApiKeyRecord, type KeyOwner, type RateLimitOverride } from './api-key.ts';
import { ConflictError, NotFoundError, ValidationError } from './errors.ts';
import type { Clock } from './ports/clock.ts';
import type { KeyMinter, SecretSealer } from './ports/key-minter.ts';
import type { AgentGroupChanges, SealedCallbackSecret, TenantDirectory } from './ports/tenant-directory.ts';
import { anchorDayRange, GSTIN_PATTERN, MAX_OVERDUE_HOLD_DAYS, MAX_PAYMENT_TERMS_DAYS, type AgentGroup, type Partner, type PostalAddress } from './tenants.ts';
import { callbackSecretContext } from './deliveries/booking-callback.ts';
import { gstStateByName } from './invoicing/gst-state-codes.ts';

/** Operator use cases behind the admin tool. Each validates fully before it writes anything. */
export interface AdminDeps {
  readonly tenants: TenantDirectory;
  readonly clock: Clock;
  readonly minter: KeyMinter;
  readonly sealer: SecretSealer;
  readonly ids: IdGenerator;
  /** The operator every change is recorded against (docs/audit.md). */
  readonly origin: AuditOrigin;
}

/** A group as the audit trail records it: terms, limits, holds and legal details; never a secret. */
export const groupFigures = (g: AgentGroup): AuditFields => ({
  partnerId: g.partnerId,
  name: g.name,
  channelId: g.channelId,
  creditLimit: g.creditLimit,
  onHold: g.onHold,
  distributionEnabled: g.distributionEnabled ?? true,
  billingCycle: g.billingCycle,
  billingAnchorDay: g.billingAnchorDay,
  paymentTermsDays: g.paymentTermsDays ?? null,
  overdueHoldDays: g.overdueHoldDays ?? null,
  gstin: g.gstin,
  legalName: g.legalName,
  address: [g.address.line1, g.address.line2, g.address.city, g.address.state, g.address.postalCode, g.address.country].filter(Boolean).join(', '),
});

/** A key as the audit trail records it: its id, shown prefix, owner and state; never the key or its hash. */
export const keyFigures = (k: ApiKeyRecord): AuditFields => ({
  keyId: k.keyId,
  keyPrefix: k.keyPrefix,
  owner: `${k.owner.kind}:${k.owner.id}`,
  status: k.status,
  label: k.label,
  ratePerMinute: k.rateLimit?.perMinute ?? null,
  rateBurst: k.rateLimit?.burst ?? null,
});

/** The operator's event for a change, stamped now. */
export function operatorAudit(
  deps: Pick<AdminDeps, 'ids' | 'clock' | 'origin'>,
  action: string,
  target: string,
  account: string | null,
  before: AuditFields | null,
  after: AuditFields | null,
): AuditDraft {
  return { id: deps.ids.uuid(), at: deps.clock.now().toISOString(), origin: deps.origin, action, target, account, before, after };
}

const keyTarget = (k: ApiKeyRecord) => `key:${k.keyId}`;
const keyAccount = (k: ApiKeyRecord) => (k.owner.kind === 'agent-group' ? k.owner.id : `partner:${k.owner.id}`);

export const ID_PATTERN = /^[a-z0-9][a-z0-9-]{1,62}$/;

export function assertId(param: string, value: string): void {
  if (!ID_PATTERN.test(value)) throw new ValidationError(param, `${param} must be 2–63 characters of a–z, 0–9 and '-', starting with a letter or digit.`);
}

export type NewPartner = Omit<Partner, 'createdAt' | 'updatedAt'>;
export type NewAgentGroup = Omit<AgentGroup, 'createdAt' | 'updatedAt'>;

export function validatePartner(p: NewPartner): void {
  assertId('partnerId', p.partnerId);
  assertId('channelId', p.channelId);
  if (!p.name.trim()) throw new ValidationError('name', 'name must not be empty.');
}

export function validateAgentGroup(g: NewAgentGroup): void {
  assertId('agentGroupId', g.agentGroupId);
  assertId('partnerId', g.partnerId);
  assertId('channelId', g.channelId);
  if (!g.name.trim()) throw new ValidationError('name', 'name must not be empty.');
  if (!Number.isSafeInteger(g.creditLimit) || g.creditLimit < 0)
    throw new ValidationError('creditLimit', 'creditLimit must be zero or a positive amount in rupees with at most two decimals.');
  const [lo, hi] = anchorDayRange(g.billingCycle);
  if (!Number.isInteger(g.billingAnchorDay) || g.billingAnchorDay < lo || g.billingAnchorDay > hi) {
    throw new ValidationError('billingAnchorDay', `billingAnchorDay must be ${lo}–${hi} for a ${g.billingCycle} cycle.`);
  }
  if (g.paymentTermsDays !== undefined && (!Number.isInteger(g.paymentTermsDays) || g.paymentTermsDays < 0 || g.paymentTermsDays > MAX_PAYMENT_TERMS_DAYS)) {
    throw new ValidationError('paymentTermsDays', `paymentTermsDays must be a whole number of days from 0 to ${MAX_PAYMENT_TERMS_DAYS}.`);
  }
  if (
    g.overdueHoldDays !== undefined &&
    g.overdueHoldDays !== null &&
    (!Number.isInteger(g.overdueHoldDays) || g.overdueHoldDays < 0 || g.overdueHoldDays > MAX_OVERDUE_HOLD_DAYS)
  ) {
    throw new ValidationError('overdueHoldDays', `overdueHoldDays must be a whole number of days from 0 to ${MAX_OVERDUE_HOLD_DAYS}, or none.`);
  }
  if (g.gstin !== null && !GSTIN_PATTERN.test(g.gstin)) throw new ValidationError('gstin', 'gstin must be a 15-character GSTIN such as 27AAPFU0939F1ZV.');
  if (!g.legalName.trim()) throw new ValidationError('legalName', 'legalName must not be empty.');
  for (const field of ['line1', 'city', 'state', 'postalCode', 'country'] as const) {
    if (!g.address[field]?.trim()) throw new ValidationError(`address.${field}`, `address.${field} must not be empty.`);
  }
  // An invoice to a recipient without a GSTIN names its State and the State's code (CGST Rules, rule 46(e)): the address must give one.
  if (g.gstin === null && ['IN', 'INDIA'].includes(g.address.country.trim().toUpperCase()) && !gstStateByName(g.address.state)) {
    throw new ValidationError(
      'address.state',
      `address.state "${g.address.state}" is not an Indian state or union territory; a group without a GSTIN is invoiced with its State's name and GST code (e.g. Maharashtra).`,
    );
  }
}

export async function createPartner(deps: AdminDeps, input: NewPartner): Promise<Partner> {
  validatePartner(input);
  const now = deps.clock.now().toISOString();
  const partner: Partner = { ...input, createdAt: now, updatedAt: now };
  await deps.tenants.createPartner(
    partner,
    operatorAudit(deps, 'partner.created', `partner:${partner.partnerId}`, `partner:${partner.partnerId}`, null, {
      name: partner.name,
      channelId: partner.channelId,
    }),
  );
  return partner;
}

export async function createAgentGroup(deps: AdminDeps, input: NewAgentGroup): Promise<AgentGroup> {
  validateAgentGroup(input);
  if (!(await deps.tenants.getPartner(input.partnerId))) throw new ValidationError('partnerId', `Partner ${input.partnerId} does not exist.`);
  const now = deps.clock.now().toISOString();
  const group: AgentGroup = { ...input, createdAt: now, updatedAt: now };
  await deps.tenants.createAgentGroup(
    group,
    operatorAudit(deps, 'group.created', `group:${group.agentGroupId}`, group.agentGroupId, null, groupFigures(group)),
  );
  return group;
}

export interface IssuedKey {
  readonly record: ApiKeyRecord;
  /** Shown once; only its hash is stored. */
  readonly apiKey: string;
  /** For agent groups: the new callback signing secret, shown once. */
  readonly signingSecret: string | null;
}

export interface IssueKeyInput {
  readonly owner: KeyOwner;
  readonly label?: string | null;
  readonly rateLimit?: RateLimitOverride | null;
  /** Sandbox world files may bring their own plaintext key; everything else gets a minted one. */
  readonly presetKey?: string;
  readonly presetSigningSecret?: string;
}

export function validateRateLimit(rl: RateLimitOverride | null | undefined): void {
  if (!rl) return;
  if (!Number.isInteger(rl.perMinute) || rl.perMinute < 1 || rl.perMinute > 100_000)
    throw new ValidationError('rateLimit.perMinute', 'rateLimit.perMinute must be an integer from 1 to 100000.');
  if (!Number.isInteger(rl.burst) || rl.burst < 1 || rl.burst > 10_000)
    throw new ValidationError('rateLimit.burst', 'rateLimit.burst must be an integer from 1 to 10000.');
}

async function assertOwnerExists(deps: AdminDeps, owner: KeyOwner): Promise<void> {
  const found = owner.kind === 'partner' ? await deps.tenants.getPartner(owner.id) : await deps.tenants.getAgentGroup(owner.id);
  if (!found) throw new NotFoundError(owner.kind === 'partner' ? 'Partner' : 'Agent group');
}

function mintRecord(deps: AdminDeps, input: IssueKeyInput, apiKey: string, now: string): ApiKeyRecord {
  return {
    keyId: deps.minter.newKeyId(),
    keyHash: deps.minter.hash(apiKey),
    keyPrefix: keyPrefixOf(apiKey),
    owner: input.owner,
    status: 'ACTIVE',
    label: input.label ?? null,
    rateLimit: input.rateLimit ?? null,
    createdAt: now,
    revokedAt: null,
  };
}

/**
 * Issues a key. For an agent group a fresh callback signing secret is minted with it and
 * replaces the group's previous one (callbacks are signed per group, docs/decisions.md).
 */
export async function issueKey(deps: AdminDeps, input: IssueKeyInput): Promise<IssuedKey> {
  validateRateLimit(input.rateLimit);
  await assertOwnerExists(deps, input.owner);
  const now = deps.clock.now().toISOString();
  const apiKey = input.presetKey ?? deps.minter.newApiKey();
  const record = mintRecord(deps, input, apiKey, now);
  const secret = newSigningSecret(deps, input);
  // Key and secret land together or not at all: a key must never exist without the secret printed beside it.
  await deps.tenants.createKey(
    record,
    secret?.sealed,
    operatorAudit(deps, 'key.issued', keyTarget(record), keyAccount(record), null, { ...keyFigures(record), signingSecretRotated: secret !== undefined }),
  );
  return { record, apiKey, signingSecret: secret?.plain ?? null };
}

function newSigningSecret(deps: AdminDeps, input: IssueKeyInput): { plain: string; sealed: SealedCallbackSecret } | undefined {
  if (input.owner.kind !== 'agent-group') return undefined;
  const plain = input.presetSigningSecret ?? deps.minter.newSigningSecret();
  return { plain, sealed: { agentGroupId: input.owner.id, sealed: deps.sealer.seal(plain, callbackSecretContext(input.owner.id)) } };
}

/**
 * The key an operator names by its id (`key_…`), by the key itself (found by its hash; the
 * key is never stored or printed), or by a leading part of its shown prefix when exactly one
 * key has it. Several keys sharing the prefix is a 409 listing their ids.
 */
export async function findKeyByReference(deps: AdminDeps, reference: string): Promise<ApiKeyRecord> {
  const byId = reference.startsWith('key_') ? await deps.tenants.getKey(reference) : undefined;
  if (byId) return byId;
  const byKey = await deps.tenants.findKeyByHash(deps.minter.hash(reference));
  if (byKey) return byKey;
  if (reference.length < MIN_PREFIX_REFERENCE || reference.length > KEY_PREFIX_LENGTH) throw new NotFoundError('Key');
  const byPrefix = await deps.tenants.findKeysByPrefix(reference);
  if (byPrefix.length === 1) return byPrefix[0]!;
  if (byPrefix.length === 0) throw new NotFoundError('Key');
  const ids = byPrefix.map((k) => k.keyId).sort();
  throw new ConflictError('CONFLICT', `${byPrefix.length} keys start with ${reference}: ${ids.join(', ')}. Name one by its key id.`);
}

/** Shorter than this, a prefix ("pds_") names no key in particular. */
export const MIN_PREFIX_REFERENCE = 6;

export async function revokeKey(deps: AdminDeps, keyId: string): Promise<ApiKeyRecord> {
  const current = await deps.tenants.getKey(keyId);
  if (!current) throw new NotFoundError('Key');
  const at = deps.clock.now().toISOString();
  const revoked = await deps.tenants.revokeKey(
    keyId,
    at,
    operatorAudit(deps, 'key.revoked', keyTarget(current), keyAccount(current), keyFigures(current), { ...keyFigures(current), status: 'REVOKED' }),
  );
  if (!revoked) throw new NotFoundError('Key');
  return revoked;
}

/** New key (and, for a group, new signing secret) issued and the old key revoked together. */
export async function replaceKey(deps: AdminDeps, keyId: string): Promise<IssuedKey> {
  const old = await deps.tenants.getKey(keyId);
  if (!old) throw new NotFoundError('Key');
  if (old.status === 'REVOKED') throw new ConflictError('CONFLICT', `Key ${keyId} is already revoked; issue a new key instead.`);
  const now = deps.clock.now().toISOString();
  const input: IssueKeyInput = { owner: old.owner, label: old.label, rateLimit: old.rateLimit };
  const apiKey = deps.minter.newApiKey();
  const record = mintRecord(deps, input, apiKey, now);
  const secret = newSigningSecret(deps, input);
  // Recorded on the old key's chain: the replacement names the key that took its place.
  await deps.tenants.replaceKey(
    keyId,
    record,
    now,
    secret?.sealed,
    operatorAudit(deps, 'key.replaced', keyTarget(old), keyAccount(old), keyFigures(old), {
      ...keyFigures(old),
      status: 'REVOKED',
      replacedBy: record.keyId,
      signingSecretRotated: secret !== undefined,
    }),
  );
  return { record, apiKey, signingSecret: secret?.plain ?? null };
}

/** What an operator changes on a group; the address may be changed a line at a time. */
export type AgentGroupUpdate = Omit<AgentGroupChanges, 'address'> & { readonly address?: Partial<PostalAddress> };

const definedOnly = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, value]) => value !== undefined)) as Partial<T>;

/** The address is stored whole; an empty second line removes it rather than storing a blank. */
function mergeAddress(current: PostalAddress, changes: Partial<PostalAddress>): PostalAddress {
  const { line2, ...rest } = { ...current, ...changes };
  return line2?.trim() ? { ...rest, line2 } : rest;
}

/**
 * Changes an existing group's limit, hold, distribution access or legal details. The group
 * as it would be afterwards is validated whole before anything is written; only the given
 * fields are then written, so a concurrent booking's exposure update is never overwritten.
 * A lower limit than the current exposure is accepted: it refuses further bookings, it does
 * not undo existing ones.
 */
export async function updateAgentGroup(deps: AdminDeps, agentGroupId: string, update: AgentGroupUpdate): Promise<AgentGroup> {
  assertId('agentGroupId', agentGroupId);
  const { address: addressUpdate, ...fields } = update;
  const given = definedOnly(fields) as AgentGroupChanges;
  const addressGiven = definedOnly(addressUpdate ?? {});
  if (Object.keys(given).length === 0 && Object.keys(addressGiven).length === 0) {
    throw new ValidationError('changes', 'Nothing to change: give at least one field to update.');
  }
  const current = await deps.tenants.getAgentGroup(agentGroupId);
  if (!current) throw new NotFoundError('Agent group');
  const changes: AgentGroupChanges = Object.keys(addressGiven).length > 0 ? { ...given, address: mergeAddress(current.address, addressGiven) } : given;
  validateAgentGroup({ ...current, ...changes });
  const audit = operatorAudit(deps, 'group.updated', `group:${agentGroupId}`, agentGroupId, groupFigures(current), groupFigures({ ...current, ...changes }));
  const updated = await deps.tenants.updateAgentGroup(agentGroupId, changes, deps.clock.now().toISOString(), audit);
  if (!updated) throw new NotFoundError('Agent group');
  return updated;
}
