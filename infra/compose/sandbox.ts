/**
 * The sandbox's wiring: test clocks (docs/sandbox.md). Advancing a clock runs the group's due
 * work as the daily run does, so this module builds on billing's (and brings Razorpay's SDK with it).
 * Handlers import this module and `core.ts`, never another area's (docs/decisions/platform.md, "Composition per area").
 */
import { billOneGroup } from '../../domain/invoicing/scheduled-billing.ts';
import type { DueWork } from '../../domain/test-clocks/manage-test-clocks.ts';
import { withStatementPdf } from '../pdf/statement-renderer.ts';
import { billingDeps } from './billing.ts';
import type { Services } from './core.ts';

/**
 * The daily run's work for one group at its clock's new time: the periods that closed are billed
 * (PDFs go to the PDF worker, as for POST /v1/invoices), credit control looks at the overdue
 * invoices and the day's payment reminders go, and the monthly statement (its PDF rendered here).
 * The API's advance and the console's test clock page both run it.
 */
export const dueWorkOn =
  (svc: Services): DueWork =>
  async (agentGroupId, clock) => {
    await billOneGroup(withStatementPdf(billingDeps(svc.atClock(clock))), agentGroupId, { trigger: 'SCHEDULE' });
  };
