import { defineFunction, workerSdkLimits } from '../../infra/deploy/function-manifest.ts';

export default defineFunction({
  handler: 'functions/workers/sweep-deliveries.handler',
  timeout: 60,
  environment: workerSdkLimits,
  events: [{ schedule: { rate: 'rate(5 minutes)', enabled: '${param:schedulesEnabled}' } }],
  grants: ['workDeliveries', 'sweepPending', 'queueDeliveries'],
});
