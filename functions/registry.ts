import type { RouteSpec } from './http/route.ts';
import { getBookingRoute, listBookingsRoute } from './contracts/booking-reads.ts';
import { getDistributionListingRoute, listDistributionListingsRoute, readAvailabilityRoute } from './contracts/distribution-catalogue.ts';
import { cancelBookingRoute, cancellationQuoteRoute, createBookingRoute } from './contracts/bookings.ts';
import { listChangesRoute, listWebhookDeliveriesRoute, resendWebhookDeliveryRoute } from './contracts/deliveries.ts';
import { createOrderRoute, getOrderRoute, previewOrderRoute, repriceOrderRoute } from './contracts/orders.ts';
import { getStatementRoute, listLedgerRoute } from './contracts/ledger.ts';
import { listAuditEventsRoute, listPartnerAuditEventsRoute } from './contracts/audit.ts';
import { createBillingRunRoute, getInvoicePdfRoute, getInvoiceRoute, listInvoicesRoute } from './contracts/invoices.ts';
import { gatewayNotificationRoute } from './contracts/payments.ts';
import { channexChangesRoute, channexMappingDetailsRoute, channexTestConnectionRoute } from './contracts/channel-manager.ts';
import { listInventoriesRoute, listListingsRoute, listRatesRoute } from './contracts/partner-reads.ts';
import { searchListingsRoute } from './contracts/search.ts';
import { createFinanceContactRoute, deleteFinanceContactRoute, listFinanceContactsRoute, updateFinanceContactRoute } from './contracts/finance-contacts.ts';
import { advanceTestClockRoute, createTestClockRoute, deleteTestClockRoute, getTestClockRoute, listTestClocksRoute } from './contracts/test-clocks.ts';
import { applyAmendmentRoute, quoteAmendmentRoute } from './contracts/amendments.ts';
import {
  apiPingRoute,
  docsRoute,
  openApiRoute,
  partnerOpenApiRoute,
  postmanCollectionRoute,
  postmanEnvironmentRoute,
  v1PingRoute,
} from './contracts/system.ts';
import {
  createWebhookEndpointRoute,
  deleteWebhookEndpointRoute,
  getWebhookEndpointRoute,
  listEventTypesRoute,
  listWebhookEndpointsRoute,
  updateWebhookEndpointRoute,
} from './contracts/webhooks.ts';

/**
 * Every route the service serves. serverless.yml routes exactly these (a test checks),
 * the OpenAPI document is generated from them, and the fallback uses them to tell a
 * wrong method (405) from an unknown path (404).
 */
export const ROUTES: readonly RouteSpec[] = [
  apiPingRoute,
  v1PingRoute,
  openApiRoute,
  partnerOpenApiRoute,
  docsRoute,
  postmanCollectionRoute,
  postmanEnvironmentRoute,
  listListingsRoute,
  listInventoriesRoute,
  listRatesRoute,
  listWebhookEndpointsRoute,
  createWebhookEndpointRoute,
  getWebhookEndpointRoute,
  updateWebhookEndpointRoute,
  deleteWebhookEndpointRoute,
  listEventTypesRoute,
  listWebhookDeliveriesRoute,
  resendWebhookDeliveryRoute,
  listChangesRoute,
  previewOrderRoute,
  createOrderRoute,
  getOrderRoute,
  repriceOrderRoute,
  searchListingsRoute,
  listDistributionListingsRoute,
  getDistributionListingRoute,
  readAvailabilityRoute,
  createBookingRoute,
  cancelBookingRoute,
  cancellationQuoteRoute,
  listLedgerRoute,
  getStatementRoute,
  listAuditEventsRoute,
  listPartnerAuditEventsRoute,
  listBookingsRoute,
  getBookingRoute,
  quoteAmendmentRoute,
  applyAmendmentRoute,
  createBillingRunRoute,
  listInvoicesRoute,
  getInvoiceRoute,
  getInvoicePdfRoute,
  listFinanceContactsRoute,
  createFinanceContactRoute,
  updateFinanceContactRoute,
  deleteFinanceContactRoute,
  gatewayNotificationRoute,
  channexTestConnectionRoute,
  channexMappingDetailsRoute,
  channexChangesRoute,
  listTestClocksRoute,
  createTestClockRoute,
  getTestClockRoute,
  advanceTestClockRoute,
  deleteTestClockRoute,
];
