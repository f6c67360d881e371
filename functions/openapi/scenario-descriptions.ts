import { BILLING_SCENARIOS, type BillingScenario } from '../../domain/sandbox/billing-scenarios.ts';
import { SANDBOX_SCENARIOS, type SandboxScenario } from '../../domain/sandbox/order-scenarios.ts';
import { AMENDMENT_SCENARIOS, type AmendmentScenario } from '../../domain/sandbox/workflow-scenarios.ts';
import { applyAmendmentRoute } from '../contracts/amendments.ts';
import { BOOKING_SCENARIO_VALUES, createBookingRoute } from '../contracts/bookings.ts';
import { createBillingRunRoute } from '../contracts/invoices.ts';
import { createOrderRoute, previewOrderRoute, repriceOrderRoute } from '../contracts/orders.ts';

/*
 * What each value of the `X-Test-Scenario` header does, per request (docs/sandbox.md): the one
 * copy of these words. The OpenAPI document's "Sandbox scenarios" section (build.ts) and the
 * console's test scenarios page (functions/console/sandbox-scenarios.ts) both print them.
 * The records are typed by the domain's values, so a new value fails to compile until it is described.
 */

const ORDER_EFFECTS: Record<SandboxScenario, string> = {
  'price-moved':
    "Priced as though the channel's rates had moved by 1 % since the last quote; the stored order keeps that price, so a later read or booking meets the move.",
  'sold-out': 'Priced normally, then every item is marked `soldOut: true`.',
};
const BOOKING_EFFECTS: Record<(typeof BOOKING_SCENARIO_VALUES)[number], string> = {
  'price-moved':
    'The order is re-priced with the move, so the accepted total no longer matches: `409 PRICE_MOVED` with `expectedTotal` and `breakup`. Nothing is written.',
  'booking-processing': 'The booking lands a little after the synchronous wait: `202 PROCESSING`, then CONFIRMED and `booking.confirmed`.',
  'booking-failed': 'The booking never lands: FAILED when the window closes, the authorization released, `booking.failed` with `BOOKING_NOT_COMPLETED`.',
  'booking-late': 'The booking lands half a window after it failed: `booking.failed`, then `booking.confirmed`, and the charge is posted again.',
};
const AMENDMENT_EFFECTS: Record<AmendmentScenario, string> = {
  'amendment-refused':
    "The channel manager refuses the change: `409 CHANNEL_REFUSED` and nothing changes; the attempt shows `REFUSED` in the booking's `amendments`.",
  'amendment-fails':
    'The channel accepts, then adjusting the charge fails: the original stay is pushed back and the rows restored, `409 AMENDMENT_FAILED`; the amendment shows `COMPENSATED` and no ADJUSTMENT is written.',
};
const BILLING_EFFECTS: Record<BillingScenario, string> = {
  'invoice-issue-fails':
    'The run writes its invoices and lines, then issuing them fails: each stays DRAFT (its id in `invoiceIds`, its PDF `409`) until the next run issues it.',
  'einvoice-irp-unavailable':
    'The e-invoice registration portal is down for the whole run: an invoice of a registration marked for e-invoicing takes its number and stays DRAFT; the next run registers and issues it with that number.',
  'billing-hands-off':
    'The run answers as a large run whose time is up: its invoices DRAFT with `linesWritten: 0`; the billing worker then writes the lines and issues them.',
};

export interface ScenarioValue {
  readonly value: string;
  /** Markdown: `code` in backticks, as the OpenAPI document prints it. */
  readonly effect: string;
}

export interface ScenarioRequest {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly summary: string;
}

/** A set of values and the requests that take them. */
export interface ScenarioFamily {
  readonly requests: readonly ScenarioRequest[];
  readonly values: readonly ScenarioValue[];
}

const request = (r: ScenarioRequest): ScenarioRequest => ({ operationId: r.operationId, method: r.method, path: r.path, summary: r.summary });
const values = (effects: Record<string, string>, names: readonly string[]): ScenarioValue[] => names.map((value) => ({ value, effect: effects[value]! }));

/** Every request that reads the header, with the values it accepts (the same lists the handlers pass to sandboxHeader). */
export const SCENARIO_FAMILIES: readonly ScenarioFamily[] = [
  { requests: [previewOrderRoute, createOrderRoute, repriceOrderRoute].map(request), values: values(ORDER_EFFECTS, SANDBOX_SCENARIOS) },
  { requests: [request(createBookingRoute)], values: values(BOOKING_EFFECTS, BOOKING_SCENARIO_VALUES) },
  { requests: [request(applyAmendmentRoute)], values: values(AMENDMENT_EFFECTS, AMENDMENT_SCENARIOS) },
  { requests: [request(createBillingRunRoute)], values: values(BILLING_EFFECTS, BILLING_SCENARIOS) },
];
