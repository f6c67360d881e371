import { defineFunction } from '../../infra/deploy/function-manifest.ts';

export default defineFunction({
  handler: 'functions/areas/webhooks.handler',
  events: 'http',
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['readTenants', 'spendToken', 'manageWebhooks', 'writeAudit', 'readEndpointDeliveries', 'workDeliveries', 'queueDeliveries', 'keepIdempotencyKeys'],
});
