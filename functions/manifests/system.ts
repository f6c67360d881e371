import { defineFunction } from '../../infra/deploy/function-manifest.ts';

/**
 * Redoc's standalone bundle, which the page inlines (functions/system/docs.ts): a file of the
 * artifact read at the first request, so /docs loads nothing from a CDN and its cold start does not parse it.
 */
export default defineFunction({
  handler: 'functions/areas/system.handler',
  package: { patterns: ['node_modules/redoc/bundles/redoc.standalone.js'] },
  events: 'http',
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['readTenants', 'spendToken'],
});
