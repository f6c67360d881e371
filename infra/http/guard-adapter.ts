import type { UrlGuard } from '../../domain/ports/url-guard.ts';
import { assertOutboundUrl, type OutboundPolicy } from './outbound-guard.ts';

/** The domain's UrlGuard port over the outbound guard, with the stage's policy. */
export const outboundUrlGuard = (policy: OutboundPolicy): UrlGuard => ({
  assertAllowed: async (param, url) => {
    await assertOutboundUrl(param, url, policy);
  },
});
