import { services, wire } from '../../infra/compose/core.ts';
import { onFirstCall } from '../../infra/lazy.ts';
import { consoleAppDeps, handleConsole, type ConsoleAppDeps } from '../console/app.ts';
import { areaRouter } from '../http/area-router.ts';
import type { HttpHandler } from '../http/area-router.ts';
import { handler as fallback } from '../system/fallback.ts';
import { bookingAdapters } from '../../infra/compose/adapters/bookings.ts';
import { billingAdapters } from '../../infra/compose/adapters/billing.ts';
import { mailAdapters } from '../../infra/compose/adapters/mail.ts';
import { paymentAdapters } from '../../infra/compose/adapters/payments.ts';
import { consoleAdapters } from '../../infra/compose/adapters/console.ts';
import { channexAdapters } from '../../infra/compose/adapters/channel-manager.ts';

// The adapters this function uses beyond the core's (infra/compose/core.ts, wire; `npm run check:wiring` holds it to what its code reads).
wire(bookingAdapters, billingAdapters, mailAdapters, paymentAdapters, consoleAdapters, channexAdapters);

/** As the invoice PDF function: pdf-lib, fontkit and the fonts load at the first download, not at the cold start. */
const renderer = onFirstCall(async () => new (await import('../../infra/pdf/pdf-invoice-renderer.ts')).PdfInvoiceRenderer());

let deps: ConsoleAppDeps | undefined;
function consoleDeps(): ConsoleAppDeps {
  const svc = services();
  // Read and checked with every other setting (infra/config.ts): an http address outside local and test fails the cold start.
  const { consoleUrl } = svc.config;
  if (!consoleUrl) throw new Error('CONSOLE_URL is not set: the console cannot address its sign-in links');
  deps ??= consoleAppDeps(svc, consoleUrl, renderer);
  return deps;
}

const pages: HttpHandler = (event) => handleConsole(consoleDeps(), event);

/**
 * The console (docs/console.md): server-rendered pages for partners' people and our operators,
 * one function behind three routes (the greedy route per method and the bare /console), which
 * functions/console/app.ts routes by path (docs/decisions/console.md).
 */
export const handler = areaRouter([], fallback, { 'GET /console': pages, 'GET /console/{proxy+}': pages, 'POST /console/{proxy+}': pages });
