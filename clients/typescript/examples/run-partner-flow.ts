#!/usr/bin/env node
/**
 * `pds-partner-flow`: the example partner flow (partner-flow.ts) against a running service,
 * installed with the package. Configured from the environment:
 *   PDS_BASE_URL   the service (default http://localhost:3000, where `npm start` serves)
 *   PDS_API_KEY    an agent-group key (required; `npm start` prints the demo ones)
 *   PDS_STATE      where to search (default Goa)
 *   PDS_DAYS_AHEAD how far from today (India) the 2-night stay starts (default 45)
 * The invoice is not paid here: paying is the partner's checkout, or in the local sandbox
 * `npm run admin -- gateway pay <invoiceId> --group <group>`, which the run prints.
 * Prints one line per step; exits 1 with the error when a step fails.
 */
import { PartnerApiError } from '../src/index.ts';
import { partnerFlow } from './partner-flow.ts';

const DAY_MS = 24 * 3600 * 1000;
/** A date in India (UTC+05:30, no daylight saving), `days` from today there. */
const indiaDate = (days: number): string => new Date(Date.now() + 5.5 * 3600 * 1000 + days * DAY_MS).toISOString().slice(0, 10);

function setting(name: string, fallback?: string): string {
  const value = process.env[name]?.trim() || fallback;
  if (value === undefined) {
    console.error(`${name} is not set: export ${name}=… (an agent-group key; npm start prints the demo ones) and run again.`);
    process.exit(2);
  }
  return value;
}

const daysAhead = Number(setting('PDS_DAYS_AHEAD', '45'));
if (!Number.isInteger(daysAhead) || daysAhead < 1) {
  console.error(`PDS_DAYS_AHEAD must be a whole number of days, 1 or more; got ${process.env.PDS_DAYS_AHEAD}.`);
  process.exit(2);
}

try {
  const flow = await partnerFlow({
    baseUrl: setting('PDS_BASE_URL', 'http://localhost:3000'),
    apiKey: setting('PDS_API_KEY'),
    state: setting('PDS_STATE', 'Goa'),
    checkIn: indiaDate(daysAhead),
    checkOut: indiaDate(daysAhead + 2),
    newCheckOut: indiaDate(daysAhead + 3),
    billFrom: indiaDate(-30),
    billTo: indiaDate(0),
    pay: async (invoice) =>
      console.log(`pay       invoice ${invoice.id} (${invoice.total}) is yours to pay; locally: npm run admin -- gateway pay ${invoice.id} --group <group>`),
  });
  console.log(`search    ${flow.listing.listingId}`);
  console.log(`order     ${flow.order.orderId} at ${flow.order.summary.grandTotal}`);
  console.log(`booking   ${flow.booked.bookingId} ${flow.booked.status}`);
  console.log(`amended   to ${flow.amendment.checkOut}: ${flow.amendment.previousTotal} → ${flow.amendment.newTotal}`);
  console.log(`invoice   ${flow.invoice.invoiceNumber}, total ${flow.invoice.total}, PDF ${flow.pdf.byteLength} bytes`);
  console.log(`cancelled refund ${flow.cancelled.cancellation.refundAmount}; ledger entries of the booking: ${flow.entries.map((e) => e.type).join(', ')}`);
  console.log(`clock     ${flow.clock.id} advanced to ${flow.advanced.now}`);
} catch (error) {
  const why = error instanceof PartnerApiError ? `${error.message} (request ${error.requestId})` : String(error);
  console.error(`partner flow failed: ${why}`);
  process.exit(1);
}
