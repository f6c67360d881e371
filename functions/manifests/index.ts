import type { FunctionManifest } from '../../infra/deploy/function-manifest.ts';
import system from './system.ts';
import catalogue from './catalogue.ts';
import webhooks from './webhooks.ts';
import bookings from './bookings.ts';
import accounts from './accounts.ts';
import invoicePdf from './invoice-pdf.ts';
import testClocks from './test-clocks.ts';
import payments from './payments.ts';
import channelManager from './channel-manager.ts';
import console from './console.ts';
import deliverWebhooks from './deliver-webhooks.ts';
import sweepDeliveries from './sweep-deliveries.ts';
import syncCatalogue from './sync-catalogue.ts';
import bookingWorkflow from './booking-workflow.ts';
import sweepBookings from './sweep-bookings.ts';
import renderInvoicePdfs from './render-invoice-pdfs.ts';
import mailEvents from './mail-events.ts';
import reconcilePayments from './reconcile-payments.ts';
import channexChangesWorker from './channex-changes-worker.ts';
import eraseGuestData from './erase-guest-data.ts';
import writeAuditDigest from './write-audit-digest.ts';
import scheduledBilling from './scheduled-billing.ts';
import billGroup from './bill-group.ts';

/**
 * Every function of the stack by its serverless name, in the order serverless.yml lists them (the
 * order of the shared role's statements in the template). A new function is its manifest file and
 * its line here; test/unit/functions-yaml.test.ts fails when a file of this folder is not listed.
 */
export const functionManifests: Readonly<Record<string, FunctionManifest>> = {
  // HTTP: one function per area (functions/areas/*.ts), its events generated from its router.
  system,
  catalogue,
  webhooks,
  bookings,
  accounts,
  invoicePdf,
  testClocks,
  payments,
  channelManager,
  console,
  // Queue and scheduled workers.
  deliverWebhooks,
  sweepDeliveries,
  syncCatalogue,
  bookingWorkflow,
  sweepBookings,
  renderInvoicePdfs,
  mailEvents,
  reconcilePayments,
  channexChangesWorker,
  eraseGuestData,
  writeAuditDigest,
  scheduledBilling,
  billGroup,
};
