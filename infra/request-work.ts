import { AsyncLocalStorage } from 'node:async_hooks';
import { DomainError } from '../domain/errors.ts';

/**
 * The signal of the request whose work is running: aborted once the request has been answered
 * without it (over its budget, functions/http/budget.ts). Everything a request starts runs
 * inside its scope, so a storage call made after the answer can see that nobody waits for it.
 */
const current = new AsyncLocalStorage<AbortSignal>();

/** Runs `work` (and everything it goes on to start) as the work of the request `signal` stands for. */
export const runAsRequestWork = <T>(signal: AbortSignal, work: () => T): T => current.run(signal, work);

/**
 * A storage call refused because the request it was for has already been answered. A
 * DomainError, so the handler's error responder turns it quietly into a response nobody reads.
 */
export class RequestAbandonedError extends DomainError {
  override readonly name = 'RequestAbandonedError';
  constructor() {
    super('SERVICE_UNAVAILABLE', 'The request was answered before this work finished; no further storage call is made for it.');
  }
}

/** Throws RequestAbandonedError when the running request has been answered without its work. */
export function refuseAbandonedWork(): void {
  if (current.getStore()?.aborted) throw new RequestAbandonedError();
}
