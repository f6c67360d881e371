import { defineFunction, workerSdkLimits } from '../../infra/deploy/function-manifest.ts';

export default defineFunction({
  handler: 'functions/workers/sweep-deliveries.handler',
  timeout: 60,
  environment: workerSdkLimits,
  events: [{ schedule: { rate: 'rate(5 minutes)', enabled: '${param:schedulesEnabled}' } }],
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['workDeliveries', 'sweepPending', 'queueDeliveries'],
});
