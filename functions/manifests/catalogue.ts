import { defineFunction } from '../../infra/deploy/function-manifest.ts';

/**
 * Prices every candidate listing through the pricing engine; more memory is more CPU on Lambda.
 */
export default defineFunction({
  handler: 'functions/areas/catalogue.handler',
  memorySize: 1024,
  events: 'http',
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['readTenants', 'spendToken', 'readCatalogue', 'readChanges', 'readDistributionCatalogue', 'searchCatalogue'],
});
