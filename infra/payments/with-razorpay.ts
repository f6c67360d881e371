/**
 * Imported for its effect by the compose modules of the areas that call Razorpay's API:
 * infra/compose/billing.ts (orders for invoices, virtual accounts) and infra/compose/receivables.ts
 * (payment reconciliation). Only the bundles of functions that import them carry the SDK;
 * `test/unit/cold-start-imports.test.ts` names those functions.
 */
import { provideRazorpaySdk } from './razorpay-sdk.ts';

provideRazorpaySdk(() => import('razorpay'));
