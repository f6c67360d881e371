import { changes, reads } from '../channel-manager/open-channel.ts';
import { CHANNEX_GATEWAY_PATH } from '../contracts/channel-manager.ts';
import { areaRouter } from '../http/area-router.ts';
import { handler as fallback } from '../system/fallback.ts';

/** Channex's Open Channel endpoints, served through one greedy route per method (functions/channel-manager/open-channel.ts). */
export const handler = areaRouter([], fallback, { [`GET ${CHANNEX_GATEWAY_PATH}`]: reads, [`POST ${CHANNEX_GATEWAY_PATH}`]: changes });
