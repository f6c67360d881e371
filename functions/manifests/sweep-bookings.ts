import { defineFunction, workerSdkLimits } from '../../infra/deploy/function-manifest.ts';

export default defineFunction({
  handler: 'functions/workers/sweep-bookings.handler',
  timeout: 60,
  environment: workerSdkLimits,
  events: [{ schedule: { rate: 'rate(1 minute)', enabled: '${param:schedulesEnabled}' } }],
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['workBookings', 'sweepOpenBookings', 'sweepOpenAmendments', 'listTestClocks', 'amendBookings', 'readCreditPosition', 'bookInventory', 'simulatePropertySystem', 'readSimulatorBehaviour', 'queueBookingChecks', 'workDeliveries', 'queueDeliveries', 'writeAudit'],
});
