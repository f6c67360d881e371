import type { AdminDeps } from '../admin.ts';
import { keyPrefixOf, type ApiKeyRecord } from '../api-key.ts';
import { CATALOGUE_KINDS, diffCatalogue, refsOf, type CatalogueDiff, type DayMode } from '../catalogue/catalogue-diff.ts';
import { chunksOf, pendingOf, type ChunkChanges } from './import-chunks.ts';
import { reconcile, sameContent } from '../catalogue/versioned.ts';
import type { CatalogueStore } from '../ports/catalogue-store.ts';
import type { AgentGroup, Partner } from '../tenants.ts';
import { checkWorld, externalIds, type KnownIds, type WorldCheckOptions } from './check-world.ts';
import { worldCatalogue } from './world-catalogue.ts';
import { parseWorldShape, type WorldDocument } from './world-schema.ts';
import { WorldValidationError, type WorldIssue } from './world-validation-error.ts';
import { callbackSecretContext } from '../deliveries/booking-callback.ts';

export interface ImportWorldDeps extends AdminDeps {
  readonly catalogue: CatalogueStore;
}

export interface ImportWorldOptions extends WorldCheckOptions {
  /** `merge` for catalogue syncs: days keep what the document does not name (see diffCatalogue). */
  readonly dayMode?: DayMode;
  /** Catalogue records per chunk (default CHUNK_RECORDS). */
  readonly chunkRecords?: number;
  /** After each chunk is whole, when there is more than one: catalogue records written so far and in all. */
  readonly onProgress?: (written: number, total: number) => void;
  /** Runs once per chunk after its records and read models are stored, before the chunk counts as done (a sync announces it here). */
  readonly afterChunk?: (changes: ChunkChanges) => Promise<void>;
}

export const IMPORT_KINDS = [...CATALOGUE_KINDS, 'partner', 'agentGroup', 'apiKey', 'signingSecret'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export interface ImportSummary {
  /** Items written because they were new or their content changed, per kind. */
  readonly written: Record<ImportKind, number>;
  /** Items already stored with the same content, left untouched, per kind. */
  readonly unchanged: Record<ImportKind, number>;
  /** Which catalogue records and which dates changed: what catalogue webhooks would announce. */
  readonly changes: Pick<CatalogueDiff, 'changed' | 'inventory' | 'rates'>;
}

/**
 * The key id of an imported key, derived from its hash so that importing the same file
 * again finds the same key instead of minting a duplicate.
 */
export const importedKeyId = (hash: (s: string) => string, keyHash: string): string => `key_${hash(`key-id:${keyHash}`).slice(0, 20)}`;

/**
 * Imports a world document. Everything is checked and every affected stored record read
 * before the first write, so a document with any problem writes nothing (the
 * WorldValidationError names the JSON path of each problem). Writes only records whose
 * content differs from what is stored, keeping createdAt and moving updatedAt only on a
 * real change: importing the same document twice leaves the table exactly as it was.
 * Records the document does not mention are never deleted.
 *
 * The writes go in chunks (chunksOf), each recorded in the run's journal before its first
 * write and cleared once it is whole, so a run that stops anywhere (a crash, Ctrl-C, a
 * storage fault) is finished by running the same file again: that run completes the
 * stopped chunk and then writes what is still missing, converging on the same catalogue.
 */
const withoutClock = ({ testClockId: _clock, ...group }: AgentGroup): AgentGroup => group;

export async function importWorld(deps: ImportWorldDeps, document: unknown, opts: ImportWorldOptions): Promise<ImportSummary> {
  const doc = parseWorldShape(document);
  checkWorld(doc, opts, await lookUpExternal(deps, doc));
  const runKey = `${opts.dayMode ?? 'replace'}-${deps.minter.hash(JSON.stringify(document))}`;
  await finishPendingChunk(deps, runKey, opts);

  const now = deps.clock.now().toISOString();
  const content = worldCatalogue(doc);
  const [stored, tenants] = await Promise.all([deps.catalogue.load(refsOf(content)), planTenants(deps, doc, now)]);
  const diff = diffCatalogue(stored, content, now, opts.dayMode ?? 'replace');

  const chunks = chunksOf(diff, opts.chunkRecords);
  const total = chunks.reduce((n, c) => n + c.records, 0);
  let done = 0;
  for (const chunk of chunks) {
    await deps.catalogue.recordPendingChunk(runKey, pendingOf(chunk));
    await deps.catalogue.save(chunk.writes);
    await opts.afterChunk?.(chunk.changes);
    await deps.catalogue.clearPendingChunk(runKey);
    done += chunk.records;
    if (chunks.length > 1) opts.onProgress?.(done, total);
  }
  await applyTenants(deps, tenants);

  const counts = { ...diff.counts, ...tenants.counts };
  const written = Object.fromEntries(IMPORT_KINDS.map((k) => [k, counts[k].written])) as Record<ImportKind, number>;
  const unchanged = Object.fromEntries(IMPORT_KINDS.map((k) => [k, counts[k].unchanged])) as Record<ImportKind, number>;
  return { written, unchanged, changes: { changed: diff.changed, inventory: diff.inventory, rates: diff.rates } };
}

/**
 * Completes the chunk an earlier run of the same file stopped in: its records are stored
 * again as they now are (what the earlier run wrote, identical), which rebuilds their read
 * models (listing views, search projection), and a sync announces the chunk. The diff that
 * follows then sees those records as unchanged and writes only what was never written.
 */
async function finishPendingChunk(deps: ImportWorldDeps, runKey: string, opts: ImportWorldOptions): Promise<void> {
  const pending = await deps.catalogue.pendingChunk(runKey);
  if (!pending) return;
  await deps.catalogue.save(await deps.catalogue.load(pending.refs));
  await opts.afterChunk?.(pending.changes);
  await deps.catalogue.clearPendingChunk(runKey);
}

async function lookUpExternal(deps: ImportWorldDeps, doc: WorldDocument): Promise<KnownIds> {
  const ext = externalIds(doc);
  const found = async (ids: string[], get: (id: string) => Promise<unknown>) => {
    const hits = await Promise.all(ids.map(async (id) => ((await get(id)) ? id : undefined)));
    return new Set(hits.filter((id): id is string => id !== undefined));
  };
  const defined = new Set(doc.catalogue.listings.flatMap((l) => l.properties.map((p) => p.id)));
  const named = [...new Set([...doc.catalogue.inventory, ...doc.catalogue.rates].map((r) => r.propertyId).filter((id) => !defined.has(id)))];
  const [channels, partners, agentGroups, plans, properties] = await Promise.all([
    found(ext.channels, (id) => deps.catalogue.getChannel(id)),
    found(ext.partners, (id) => deps.tenants.getPartner(id)),
    found(ext.agentGroups, (id) => deps.tenants.getAgentGroup(id)),
    deps.catalogue.getCancellationPlans(ext.cancellationPlans),
    Promise.all(named.map((id) => deps.catalogue.getProperty(id))),
  ]);
  const storedProperties = new Map(
    properties.flatMap((p) => (p ? [[p.id, { quantity: p.quantity, applicableAdult: p.applicableAdult, maxAdults: p.maxAdults }] as const] : [])),
  );
  return { channels, partners, agentGroups, cancellationPlans: new Set(plans.map((p) => p.planId)), properties: storedProperties };
}

type Count = { written: number; unchanged: number };

interface TenantPlan {
  readonly partners: Partner[];
  readonly agentGroups: AgentGroup[];
  readonly newKeys: ApiKeyRecord[];
  readonly changedKeys: ApiKeyRecord[];
  readonly secrets: { agentGroupId: string; secret: string; fingerprint: string }[];
  readonly counts: Record<'partner' | 'agentGroup' | 'apiKey' | 'signingSecret', Count>;
}

async function planTenants(deps: ImportWorldDeps, doc: WorldDocument, now: string): Promise<TenantPlan> {
  const counts = {
    partner: { written: 0, unchanged: 0 },
    agentGroup: { written: 0, unchanged: 0 },
    apiKey: { written: 0, unchanged: 0 },
    signingSecret: { written: 0, unchanged: 0 },
  };
  const tally = (kind: keyof typeof counts, wrote: boolean) => counts[kind][wrote ? 'written' : 'unchanged']++;

  const partners = (
    await Promise.all(
      doc.tenants.partners.map(async (p) => {
        const { record, change } = reconcile<Omit<Partner, 'createdAt' | 'updatedAt'>>(await deps.tenants.getPartner(p.partnerId), p, now);
        tally('partner', change !== 'unchanged');
        return change === 'unchanged' ? [] : [record];
      }),
    )
  ).flat();

  const agentGroups = (
    await Promise.all(
      doc.tenants.agentGroups.map(async (g) => {
        // A world file does not describe sandbox clocks: the group's own stays on its record, neither a change nor dropped.
        const existing = await deps.tenants.getAgentGroup(g.agentGroupId);
        const testClockId = existing?.testClockId;
        const { record, change } = reconcile<Omit<AgentGroup, 'createdAt' | 'updatedAt'>>(existing && withoutClock(existing), g, now);
        tally('agentGroup', change !== 'unchanged');
        return change === 'unchanged' ? [] : [testClockId ? { ...record, testClockId } : record];
      }),
    )
  ).flat();

  const issues: WorldIssue[] = [];
  const newKeys: ApiKeyRecord[] = [];
  const changedKeys: ApiKeyRecord[] = [];
  await Promise.all(
    doc.keys.map(async (k, i) => {
      const keyHash = k.key !== undefined ? deps.minter.hash(k.key) : k.keyHash!;
      const keyPrefix = k.key !== undefined ? keyPrefixOf(k.key) : k.keyPrefix!;
      const existing = await deps.tenants.findKeyByHash(keyHash);
      if (existing && (existing.owner.kind !== k.owner.kind || existing.owner.id !== k.owner.id)) {
        issues.push({ path: `keys[${i}].owner`, message: 'this key is already registered to another owner' });
        return;
      }
      if (existing) {
        // A revoked key stays revoked: the file may describe it, never reopen it.
        const wanted: ApiKeyRecord = { ...existing, keyPrefix, label: k.label, rateLimit: k.rateLimit };
        const same = sameContent(wanted, existing);
        tally('apiKey', !same);
        if (!same) changedKeys.push(wanted);
        return;
      }
      tally('apiKey', true);
      newKeys.push({
        keyId: importedKeyId(deps.minter.hash, keyHash),
        keyHash,
        keyPrefix,
        owner: k.owner,
        status: 'ACTIVE',
        label: k.label,
        rateLimit: k.rateLimit,
        createdAt: now,
        revokedAt: null,
      });
    }),
  );
  if (issues.length) throw new WorldValidationError(issues);

  const wantedSecrets = new Map<string, string>();
  for (const k of doc.keys) if (k.signingSecret !== undefined) wantedSecrets.set(k.owner.id, k.signingSecret);
  const secrets = (
    await Promise.all(
      [...wantedSecrets].map(async ([agentGroupId, secret]) => {
        const fingerprint = deps.minter.hash(`${callbackSecretContext(agentGroupId)}:${secret}`);
        const same = (await deps.catalogue.importedSigningSecret(agentGroupId)) === fingerprint;
        tally('signingSecret', !same);
        return same ? [] : [{ agentGroupId, secret, fingerprint }];
      }),
    )
  ).flat();

  return { partners, agentGroups, newKeys, changedKeys, secrets, counts };
}

/** Owners before their keys, keys before secrets: a partially applied import never has a key without its owner. */
async function applyTenants(deps: ImportWorldDeps, plan: TenantPlan): Promise<void> {
  await Promise.all(plan.partners.map((p) => deps.tenants.putPartner(p)));
  await Promise.all(plan.agentGroups.map((g) => deps.tenants.putAgentGroup(g)));
  await Promise.all([...plan.newKeys.map((k) => deps.tenants.createKey(k)), ...plan.changedKeys.map((k) => deps.catalogue.overwriteKey(k))]);
  const now = deps.clock.now().toISOString();
  await Promise.all(
    plan.secrets.map(async ({ agentGroupId, secret, fingerprint }) => {
      const sealed = deps.sealer.seal(secret, callbackSecretContext(agentGroupId));
      await deps.tenants.putCallbackSecret(agentGroupId, sealed, now);
      await deps.catalogue.recordImportedSigningSecret(agentGroupId, fingerprint, sealed, now);
    }),
  );
}
