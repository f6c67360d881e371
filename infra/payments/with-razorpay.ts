/**
 * Imported for its effect by the functions (and tools) that call Razorpay's API: billing (orders
 * for invoices, virtual accounts) and payment reconciliation. Only their bundles carry the SDK;
 * `test/unit/cold-start-imports.test.ts` names them.
 */
import { provideRazorpaySdk } from './razorpay-sdk.ts';

provideRazorpaySdk(() => import('razorpay'));
