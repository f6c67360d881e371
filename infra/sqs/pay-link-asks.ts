import type { PayLinkRefreshes } from '../../domain/ports/pay-link-refreshes.ts';
import type { Metrics } from '../../domain/ports/metrics.ts';
import { logger } from '../logger.ts';

/**
 * The port's promise kept over a queue that can fail: an ask that could not be queued is logged at ERROR and counted
 * (`PayLinkAskLost`), never thrown into the use case whose change already committed; the hourly reconciliation refreshes every link.
 */
export function loggedAsks(queue: PayLinkRefreshes, metrics: () => Metrics): PayLinkRefreshes {
  return {
    async ask(agentGroupId) {
      try {
        await queue.ask(agentGroupId);
      } catch (err) {
        metrics().count('PayLinkAskLost');
        logger.error('pay link refresh not queued; the hourly reconciliation refreshes it', { agentGroupId, error: (err as Error).name });
      }
    },
  };
}
