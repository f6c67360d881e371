/**
 * The admin tool's wiring (bin/admin): it runs use cases of every area, so it re-exports their
 * dependencies; it is the one caller that may. `adminDeps` itself is in `core.ts`, shared with the
 * catalogue sync and the console.
 * Handlers import this module and `core.ts`, never another area's (docs/decisions/platform.md, "Composition per area").
 */
export { billingDeps } from './billing.ts';
export { guestErasureDeps } from './bookings.ts';
export { syncDeps } from './catalogue.ts';
export { consoleDeps } from './console.ts';
export { deliveryDeps } from './deliveries.ts';
export { paymentDeps, reconcileDeps } from './receivables.ts';
// Every adapter group: the tool runs every area's use cases in one process.
export { buildServices } from './all.ts';
