/**
 * The tests', benches' and scripts' entry to the wiring: the core (infra/compose/core.ts) and every
 * area's dependency builders and adapter groups in one import. Not a second composition root, and
 * no handler imports it (test/unit/compose-areas.test.ts); a handler imports its area's module
 * under infra/compose/ (docs/decisions/platform.md, "Composition per area").
 */
export * from './compose/core.ts';
// The benches and tests call handlers in-process, so their services() wires every group (the core's own wires only what an entry names).
export { ALL_ADAPTERS, buildServices, servicesOfEveryArea as services } from './compose/all.ts';
export { billingDeps } from './compose/billing.ts';
export { amendingDeps, bookingDeps, guestErasureDeps, orderDeps, type BookingDeps } from './compose/bookings.ts';
export { syncDeps } from './compose/catalogue.ts';
export { channexDeps } from './compose/channel-manager.ts';
export { consoleDeps } from './compose/console.ts';
export { bookingCallbackPublisher, callbackDeps, deliveryDeps } from './compose/deliveries.ts';
export { pdfDeps } from './compose/invoice-pdf.ts';
export { paymentDeps, reconcileDeps } from './compose/receivables.ts';
export { dueWorkOn } from './compose/sandbox.ts';
