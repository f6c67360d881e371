import { defineFunction } from '../../infra/deploy/function-manifest.ts';

export default defineFunction({
  handler: 'functions/areas/webhooks.handler',
  events: 'http',
  grants: ['readTenants', 'spendToken', 'manageWebhooks', 'writeAudit', 'readEndpointDeliveries', 'workDeliveries', 'queueDeliveries', 'keepIdempotencyKeys'],
});
