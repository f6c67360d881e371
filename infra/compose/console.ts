/**
 * The console's wiring (docs/console.md): signing people in, and the other areas' dependencies its
 * pages use, re-exported so the console's handlers import one module.
 * Handlers import this module and `core.ts`, never another area's (docs/decisions/platform.md, "Composition per area").
 */
import type { ConsoleDeps } from '../../domain/console/sign-in.ts';
import { consoleTokens } from '../crypto/console-tokens.ts';
import type { Services } from './core.ts';

export { billingDeps } from './billing.ts';
export { deliveryDeps } from './deliveries.ts';
export { pdfDeps } from './invoice-pdf.ts';
export { paymentDeps, reconcileDeps } from './receivables.ts';
export { dueWorkOn } from './sandbox.ts';

/** What signing people in to the console needs: the console's pages, and the admin tool's invitations. */
export function consoleDeps(svc: Services, consoleUrl: string): ConsoleDeps {
  return { people: svc.people, tokens: consoleTokens, mailer: svc.mailer, rateLimiter: svc.rateLimiter, clock: svc.realClock, ids: svc.ids, consoleUrl };
}
