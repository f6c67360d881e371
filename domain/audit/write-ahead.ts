import type { Clock } from '../ports/clock.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { AuditRecorder } from '../ports/audit-trail.ts';
import type { AuditFields, AuditOrigin } from './audit-event.ts';

/**
 * A change that cannot share a transaction with its event, recorded write-ahead (docs/audit.md "Admin commands"):
 * `started` before the change (a change whose `started` cannot be written does not run), then `completed` with
 * what `outcome` says of its result, or `failed` with the error's name only (its message may carry what the
 * trail must not keep); both share the origin's request id.
 */
export async function writeAhead<T>(
  deps: { readonly audit: AuditRecorder; readonly clock: Clock; readonly ids: IdGenerator },
  event: { readonly origin: AuditOrigin; readonly action: string; readonly target: string; readonly started: AuditFields },
  change: () => Promise<T>,
  outcome: (result: T) => AuditFields,
): Promise<T> {
  const record = (before: AuditFields | null, after: AuditFields) =>
    deps.audit.record({
      id: deps.ids.uuid(),
      at: deps.clock.now().toISOString(),
      origin: event.origin,
      action: event.action,
      target: event.target,
      account: null,
      before,
      after,
    });
  await record(null, { status: 'started', ...event.started });
  let result: T;
  try {
    result = await change();
  } catch (err) {
    await record({ status: 'started' }, { status: 'failed', error: err instanceof Error ? err.name : 'Error' }).catch(() => undefined);
    throw err;
  }
  await record({ status: 'started' }, { status: 'completed', ...outcome(result) });
  return result;
}
