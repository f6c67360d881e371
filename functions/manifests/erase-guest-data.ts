import { defineFunction, workerSdkLimits } from '../../infra/deploy/function-manifest.ts';

/**
 * 01:15 India time (19:45 UTC), after the day's check-outs have passed. Off on the test stage: the
 * shared test table holds bookings with past stays that other tests still read (tests run the job in-process).
 */
export default defineFunction({
  handler: 'functions/workers/erase-guest-data.handler',
  timeout: 900,
  environment: workerSdkLimits,
  events: [{ schedule: { rate: 'cron(45 19 * * ? *)', enabled: '${param:guestErasureScheduled}' } }],
  // biome-ignore format: a function's privileges are one line to review, not one line per grant.
  grants: ['findErasableGuests', 'eraseGuests', 'eraseGuestCallbacks', 'eraseGuestCallbackTexts', 'listTestClocks', 'writeAudit'],
});
