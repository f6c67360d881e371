import { defineFunction } from '../../infra/deploy/function-manifest.ts';

/**
 * Prices the order, passes the credit gate, then runs the workflow (property system,
 * inventory, charge, callback) for up to the synchronous wait.
 */
export default defineFunction({
  handler: 'functions/areas/bookings.handler',
  events: 'http',
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['readTenants', 'spendToken', 'readCatalogue', 'readPricing', 'writeOrders', 'readOrders', 'readBookings', 'readBookingFeed', 'readBookingDeliveries', 'readAmendments', 'workBookings', 'bookInventory', 'simulatePropertySystem', 'readSimulatorBehaviour', 'queueBookingChecks', 'workDeliveries', 'queueDeliveries', 'writeAudit', 'amendBookings', 'readCreditPosition', 'keepIdempotencyKeys'],
});
