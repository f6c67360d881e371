import { changes, reads } from '../channel-manager/open-channel.ts';
import { CHANNEX_GATEWAY_PATH } from '../contracts/channel-manager.ts';
import { areaRouter } from '../http/area-router.ts';
import { handler as fallback } from '../system/fallback.ts';
import { channexAdapters } from '../../infra/compose/adapters/channel-manager.ts';
import { wire } from '../../infra/compose/core.ts';

// The adapters this function uses beyond the core's (infra/compose/core.ts, wire; `npm run check:wiring` holds it to what its code reads).
wire(channexAdapters);

/** Channex's Open Channel endpoints, served through one greedy route per method (functions/channel-manager/open-channel.ts). */
export const handler = areaRouter([], fallback, { [`GET ${CHANNEX_GATEWAY_PATH}`]: reads, [`POST ${CHANNEX_GATEWAY_PATH}`]: changes });
