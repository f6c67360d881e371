import { ITEM_EXISTS, ITEM_IS_NEW } from '../items.ts';
import { keys } from '../keys.ts';

/*
 * The tenant directory's items (docs/data-model.md): partners and agent groups (created once,
 * never overwritten by an id collision) and API keys under the hash of their secret.
 * DynamoTenantDirectory takes its conditions from here; partners and groups are created with
 * items.ts's ITEM_IS_NEW.
 */

export const agentGroupEntity = {
  name: 'AgentGroup',
  key: keys.agentGroup,
  conditions: {
    /** An update must never create a half-filled group out of a mistyped id. */
    exists: ITEM_EXISTS,
  },
} as const;

export const apiKeyEntity = {
  name: 'ApiKey',
  key: keys.apiKey,
  conditions: {
    /** A key is created once under its hash. */
    isNew: ITEM_IS_NEW,
    /**
     * Revocation stamps the time once (`#status` → status, `:active` → 'ACTIVE'). Keys are stored
     * with `revokedAt: null`, which counts as present for if_not_exists, so the guard is on the
     * status instead: a revoked key is left exactly as it is, and revoking twice moves nothing.
     */
    active: '#status = :active',
  },
} as const;
