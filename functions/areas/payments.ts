import { areaRouter } from '../http/area-router.ts';
import { handler as gatewayNotification } from '../payments/gateway-notification.ts';
import { handler as fallback } from '../system/fallback.ts';

/** The payment gateway's signed notifications. */
export const handler = areaRouter([gatewayNotification], fallback);
