import { TEST_OPERATOR } from './audit-origin.ts';
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import type { TestStack } from './global-setup.ts';
import { createAgentGroup, createPartner, issueKey, type NewAgentGroup } from '../../domain/admin.ts';
import type { RateLimitOverride } from '../../domain/api-key.ts';
import type { AgentGroupPrincipal } from '../../domain/principal.ts';
import { parseConfig } from '../../infra/config.ts';
// The core only: every integration file's setup imports this module, and an area's wiring (Razorpay's SDK with billing's) is the file's own choice.
import { buildServices } from '../../infra/compose/all.ts';
import { adminDeps, type Services } from '../../infra/compose/core.ts';

/**
 * The emulators (and, in the e2e tier, the offline server and fakes) this tier's global setup
 * started. The integration tier has only `env`: reading anything else there is an error that
 * names the tier the file belongs in, not an `undefined` URL (docs/local-development.md, "Test tiers").
 */
export const stack = (): TestStack => {
  const provided = inject('stack');
  if (!provided)
    throw new Error(
      'The unit tier starts no emulator and no stack: a test that needs DynamoDB Local or fauxqs belongs in test/integration, one that needs the offline stack in test/e2e.',
    );
  return new Proxy(provided, {
    get(target, key, receiver) {
      if (typeof key === 'string' && !(key in target))
        throw new Error(
          `stack().${key}: this tier runs DynamoDB Local and fauxqs only; a test that needs the offline stack (HTTP, its workers, its fakes) belongs in test/e2e.`,
        );
      return Reflect.get(target, key, receiver);
    },
  });
};

let svc: Services | undefined;
/** Real adapters against the test stack's DynamoDB Local (and, later, fauxqs). */
export function testServices(): Services {
  svc ??= buildServices(parseConfig(stack().env));
  return svc;
}

export const uniqueId = (prefix: string): string => `${prefix}-${randomUUID().slice(0, 8)}`;

export const basicAuth = (key: string): string => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

export interface PartnerFixture {
  readonly partnerId: string;
  readonly channelId: string;
  readonly apiKey: string;
  readonly keyId: string;
}

export async function newPartner(opts: { channelId?: string; rateLimit?: RateLimitOverride } = {}): Promise<PartnerFixture> {
  const deps = adminDeps(testServices(), TEST_OPERATOR);
  const partner = await createPartner(deps, { partnerId: uniqueId('partner'), name: 'Test Partner', channelId: opts.channelId ?? 'test-channel' });
  const issued = await issueKey(deps, { owner: { kind: 'partner', id: partner.partnerId }, rateLimit: opts.rateLimit ?? null });
  return { partnerId: partner.partnerId, channelId: partner.channelId, apiKey: issued.apiKey, keyId: issued.record.keyId };
}

/**
 * Every agent group this test file created: after the file, the booking/ledger invariant
 * is checked on each (test/support/invariant-after-file.ts).
 */
export const createdGroups = new Set<string>();

/**
 * Groups holding bookings written straight into the table (test/support/booking-seed.ts)
 * to test reads: they have no ledger behind them by design, so the invariant skips them.
 */
export const seededGroups = new Set<string>();

export interface GroupFixture {
  readonly partnerId: string;
  readonly agentGroupId: string;
  readonly channelId: string;
  readonly apiKey: string;
  readonly keyId: string;
  readonly signingSecret: string;
}

/** The principal a request with the group's key authenticates as, for calling the domain directly. */
export const principalOf = (g: GroupFixture): AgentGroupPrincipal => ({
  kind: 'agent-group',
  agentGroupId: g.agentGroupId,
  partnerId: g.partnerId,
  channelId: g.channelId,
  keyId: g.keyId,
  keyPrefix: 'test',
});

/** `svc`: another stack's services (a fault test's own); the shared test stack's by default. */
export async function newAgentGroup(
  overrides: Partial<NewAgentGroup> & { rateLimit?: RateLimitOverride } = {},
  svc: Services = testServices(),
): Promise<GroupFixture> {
  const deps = adminDeps(svc, TEST_OPERATOR);
  const { rateLimit, ...groupOverrides } = overrides;
  const partner = groupOverrides.partnerId
    ? { partnerId: groupOverrides.partnerId }
    : await createPartner(deps, { partnerId: uniqueId('partner'), name: 'Test Partner', channelId: groupOverrides.channelId ?? 'test-channel' });
  const group = await createAgentGroup(deps, {
    agentGroupId: uniqueId('group'),
    partnerId: partner.partnerId,
    name: 'Test Agents',
    channelId: 'test-channel',
    creditLimit: 50_000_00,
    onHold: false,
    distributionEnabled: true,
    billingCycle: 'MONTHLY',
    billingAnchorDay: 1,
    gstin: '27AAPFU0939F1ZV',
    legalName: 'Test Agents Pvt Ltd',
    address: { line1: '1 Test Road', city: 'Mumbai', state: 'Maharashtra', postalCode: '400001', country: 'IN' },
    ...groupOverrides,
  });
  const issued = await issueKey(deps, { owner: { kind: 'agent-group', id: group.agentGroupId }, rateLimit: rateLimit ?? null });
  // The after-file invariant reads the shared stack; a group on another stack is its test's to check.
  if (svc === testServices()) createdGroups.add(group.agentGroupId);
  return {
    partnerId: group.partnerId,
    agentGroupId: group.agentGroupId,
    channelId: group.channelId,
    apiKey: issued.apiKey,
    keyId: issued.record.keyId,
    signingSecret: issued.signingSecret!,
  };
}

export interface CallResult<T = unknown> {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: T;
  /** What was sent, for the reference's examples (test/support/contract.ts). */
  readonly request?: { readonly method: string; readonly path: string; readonly body?: unknown };
}

/** How often a call on the shared stack resends a request answered 503 SERVICE_UNAVAILABLE. */
const UNAVAILABLE_RETRIES = 3;

/** One HTTP request to the offline server, body parsed as JSON when it is JSON. */
export async function call<T = any>(
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; baseUrl?: string; signal?: AbortSignal } = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...(opts.key ? { authorization: basicAuth(opts.key) } : {}), ...opts.headers };
  let payload: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    payload = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  let res = await fetch(`${opts.baseUrl ?? stack().baseUrl}${path}`, { method, headers, body: payload, redirect: 'manual', signal: opts.signal });
  // On the shared stack a 503 only means a machine too loaded for DynamoDB Local to answer in
  // time; a partner retries it after Retry-After, and so do the tests whose subject is not the
  // fault (the fault tests call their own stack by baseUrl and see every 503).
  for (let retry = 0; res.status === 503 && opts.baseUrl === undefined && retry < UNAVAILABLE_RETRIES; retry++) {
    await res.text();
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
    res = await fetch(`${stack().baseUrl}${path}`, { method, headers, body: payload, redirect: 'manual', signal: opts.signal });
  }
  const text = await res.text();
  let body: unknown;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, text, body: body as T, request: { method, path, body: opts.body } };
}
