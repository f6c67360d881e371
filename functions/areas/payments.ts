import { areaRouter } from '../http/area-router.ts';
import { handler as gatewayNotification } from '../payments/gateway-notification.ts';
import { handler as fallback } from '../system/fallback.ts';
import { billingAdapters } from '../../infra/compose/adapters/billing.ts';
import { mailAdapters } from '../../infra/compose/adapters/mail.ts';
import { wire } from '../../infra/compose/core.ts';

// The adapters this function uses beyond the core's (infra/compose/core.ts, wire; `npm run check:wiring` holds it to what its code reads).
wire(billingAdapters, mailAdapters);

/** The payment gateway's signed notifications. */
export const handler = areaRouter([gatewayNotification], fallback);
