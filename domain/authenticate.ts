import { UnauthorizedError, RateLimitedError, wrongKeyKind } from './errors.ts';
import type { Principal, Surface } from './principal.ts';
import type { RateLimiter } from './ports/rate-limiter.ts';
import type { TenantDirectory } from './ports/tenant-directory.ts';
import type { BucketPolicy, RateDecision } from './rate-limit.ts';

export interface AuthenticateDeps {
  readonly tenants: TenantDirectory;
  readonly rateLimiter: RateLimiter;
  readonly defaultPolicy: BucketPolicy;
}

export interface Authenticated {
  readonly principal: Principal;
  readonly rate: RateDecision;
}

/**
 * Resolves a key (by its SHA-256) to the tenant it opens on this surface and spends one
 * token from that credential's bucket. Every refusal of a missing, unknown or revoked key is the
 * same UnauthorizedError, so a caller learns nothing about which keys exist or are revoked; a live
 * key of the other kind is told which kind the route needs.
 * A throttled request throws RateLimitedError carrying the decision for the headers.
 */
export async function authenticate(deps: AuthenticateDeps, keyHash: string, surface: Surface, nowMs: number): Promise<Authenticated> {
  const key = await deps.tenants.findKeyByHash(keyHash);
  if (key?.status !== 'ACTIVE') throw new UnauthorizedError();
  const wanted = surface === 'api' ? 'partner' : 'agent-group';
  if (key.owner.kind !== wanted) throw wrongKeyKind(wanted);

  // The owner read and the token spend are independent: run them side by side (one round trip, not two).
  const policy = key.rateLimit ?? deps.defaultPolicy;
  const [principal, rate] = await Promise.all([
    resolveOwner(deps.tenants, key.owner, key.keyId, key.keyPrefix),
    deps.rateLimiter.consume(key.keyId, policy, nowMs),
  ]);
  if (!principal) throw new UnauthorizedError();
  if (!rate.allowed) throw new ThrottledError(rate);
  return { principal, rate };
}

/** A RateLimitedError that still carries the full decision for the X-RateLimit-* headers. */
export class ThrottledError extends RateLimitedError {
  constructor(readonly rate: RateDecision) {
    super(rate.retryAfter);
  }
}

async function resolveOwner(
  tenants: TenantDirectory,
  owner: { kind: 'partner' | 'agent-group'; id: string },
  keyId: string,
  keyPrefix: string,
): Promise<Principal | undefined> {
  if (owner.kind === 'partner') {
    const partner = await tenants.getPartner(owner.id);
    return partner && { kind: 'partner', partnerId: partner.partnerId, channelId: partner.channelId, keyId, keyPrefix };
  }
  const group = await tenants.getAgentGroup(owner.id);
  if (!group?.distributionEnabled) return undefined;
  return {
    kind: 'agent-group',
    agentGroupId: group.agentGroupId,
    partnerId: group.partnerId,
    channelId: group.channelId,
    keyId,
    keyPrefix,
    ...(group.testClockId ? { testClockId: group.testClockId } : {}),
  };
}
