import { randomUUID } from 'node:crypto';
import { ServiceUnavailableError } from '../../domain/errors.ts';
import { config } from '../../infra/config.ts';
import { runAsRequestWork } from '../../infra/request-work.ts';
import { logger } from '../../infra/logger.ts';
import { STORAGE_RETRY_AFTER_SECONDS } from './middleware/error-responder.ts';
import { errorResult } from './responses.ts';
import type { HttpEvent, HttpResult } from './types.ts';

/**
 * Bounds a whole HTTP request by `config().requestBudgetMs` (`budgetMs` for tests). Each storage call has its own
 * timeout, but a request makes several in a row, and storage that answers slowly (a store
 * just restarted, a throttled partition) could add them up to the function timeout; past
 * the budget the caller gets the same 503 a failed call gives, and the request's work is
 * abandoned: the DynamoDB client refuses every call it would still make (infra/request-work.ts),
 * so an answered request never goes on reading. A call already sent still finishes (bounded
 * by its own timeout): every write the service makes is conditional or transactional, so it
 * lands whole or not at all, and the caller's retry of the request finds it.
 */
export function withinBudget<C>(handler: (event: HttpEvent, context: C) => Promise<HttpResult>, budgetMs: () => number = () => config().requestBudgetMs) {
  return async (event: HttpEvent, context: C): Promise<HttpResult> => {
    let timer: NodeJS.Timeout | undefined;
    const abandon = new AbortController();
    const work = runAsRequestWork(abandon.signal, () => handler(event, context));
    // The handler's own errors become responses inside it; this only keeps an abandoned one quiet.
    work.catch(() => undefined);
    const late = new Promise<HttpResult>((resolve) => {
      const ms = budgetMs();
      timer = setTimeout(() => {
        abandon.abort();
        resolve(overBudget(event, ms));
      }, ms);
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}

function overBudget(event: HttpEvent, budgetMs: number): HttpResult {
  const state = { requestId: randomUUID(), path: event.rawPath.slice(0, 256), method: event.requestContext.http.method.toUpperCase(), receivedAt: new Date() };
  logger.warn('request over budget', { requestId: state.requestId, path: state.path, budgetMs });
  return errorResult(state, new ServiceUnavailableError(STORAGE_RETRY_AFTER_SECONDS));
}
