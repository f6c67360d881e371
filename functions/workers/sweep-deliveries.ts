import { sweepDeliveries } from '../../domain/deliveries/sweep-deliveries.ts';
import { deliveryDeps } from '../../infra/compose/deliveries.ts';
import { services } from '../../infra/compose/core.ts';
import { logger } from '../../infra/logger.ts';

/**
 * Scheduled every few minutes; also invocable by hand (offline's Lambda port:
 * POST /2015-03-31/functions/<service>-<stage>-sweepDeliveries/invocations).
 * Re-queues PENDING deliveries whose message was lost.
 */
export const handler = async () => {
  const result = await sweepDeliveries(deliveryDeps(services()));
  logger.info('delivery sweep', { ...result });
  return result;
};
