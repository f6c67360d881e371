import { can, type Capability } from '../../domain/console/people.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { SCENARIO_HEADER } from '../http/sandbox-header.ts';
import type { HttpResult } from '../http/types.ts';
import { OPENAPI_EXAMPLES } from '../openapi/examples.ts';
import { SCENARIO_FAMILIES, type ScenarioRequest } from '../openapi/scenario-descriptions.ts';
import { htmlResult, type ConsoleAppDeps, type Request, type Signed } from './app.ts';
import { html, type Html } from './html.ts';
import { page } from './layout.ts';

/*
 * The test scenarios page (sandbox stages): a reference, not a setting. A scenario is chosen per
 * request by the X-Test-Scenario header and nothing is stored (docs/decisions/console.md), so the
 * page lists what each request takes, in the OpenAPI document's own words, with a request to paste.
 */

/** A body field of the reference's examples that names something of the stage, and the shell variable (or expression) that stands for it. */
const STAGE_STRINGS: Readonly<Record<string, string>> = {
  listingId: '$LISTING_ID',
  propertyId: '$PROPERTY_ID',
  orderId: '$ORDER_ID',
  // A new id each time, so a second paste is a new booking and not a replay.
  externalBookingId: 'scenario-$(date +%s)',
};
const STAGE_NUMBERS: Readonly<Record<string, string>> = { acceptedTotal: 'ACCEPTED_TOTAL' };
/** Left out: the reference's loopback callback URL, and a billing run's window (an empty body bills the period last closed). */
const LEFT_OUT = new Set(['callbackUrl', 'from', 'to']);

/** The shell variables the examples read, and where a developer finds each. */
const VARIABLES: readonly [string, string][] = [
  ['API_KEY', 'a /v1 key of this account (API keys); sent as the user name of HTTP Basic, the password empty'],
  ['LISTING_ID, PROPERTY_ID', 'a listing your channel sells and one of its properties (GET /v1/listings)'],
  ['ORDER_ID, ACCEPTED_TOTAL', "an order's orderId and grandTotal (POST /v1/orders)"],
  ['BOOKING_ID', "a confirmed booking's bookingId (POST /v1/bookings)"],
];

/** Marks a number's variable through JSON.stringify, which would quote it. */
const NUMBER_MARK = 'shell-number:';

function stageBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stageBody);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !LEFT_OUT.has(key))
      .map(([key, v]) => {
        if (key in STAGE_STRINGS) return [key, STAGE_STRINGS[key]];
        if (key in STAGE_NUMBERS) return [key, `${NUMBER_MARK}${STAGE_NUMBERS[key]}`];
        return [key, stageBody(v)];
      }),
  );
}

/** The request's body from the reference's example (a real exchange), with the stage's ids as shell variables; undefined when it sends none. */
function bodyOf(operationId: string): string | undefined {
  const example = OPENAPI_EXAMPLES[operationId]?.request;
  if (example === undefined) return undefined;
  const body = stageBody(example) as Record<string, unknown>;
  if (Object.keys(body).length === 0) return undefined;
  return JSON.stringify(body, null, 2).replace(new RegExp(`"${NUMBER_MARK}(\\w+)"`, 'g'), '$$$1');
}

const shellName = (param: string) => param.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();

/** A curl command to paste: the key and ids from shell variables, the body (if any) as a here-document so they expand. */
export function exampleRequest(origin: string, request: ScenarioRequest, value: string): string {
  const url = `${origin}${request.path.replace(/\{(\w+)\}/g, (_, param: string) => `$${shellName(param)}`)}`;
  const body = bodyOf(request.operationId);
  const lines = [`curl -sS -u "$API_KEY:" -X ${request.method} "${url}"`, `  -H '${SCENARIO_HEADER}: ${value}'`];
  if (!body) return lines.join(' \\\n');
  return `${[...lines, "  -H 'Content-Type: application/json'", '  --data @- <<JSON'].join(' \\\n')}\n${body}\nJSON`;
}

/** The reference's Markdown words with `code` as code: the one markup they use. */
const withCode = (text: string): Html[] => text.split('`').map((part, i) => (i % 2 ? html`<code>${part}</code>` : html`${part}`));

const anchorOf = (r: ScenarioRequest) => `request-${r.operationId}`;

/** A function declaration, hoisted: app.ts's route table takes it while this module and app.ts import each other. */
export async function sandboxScenariosPage(deps: ConsoleAppDeps, _req: Request, ctx: Signed): Promise<HttpResult> {
  // As the test clock page: off sandbox stages, a path that does not exist (the API ignores the header there).
  if (!deps.svc.config.isSandbox) throw new NotFoundError('Page');
  const origin = new URL(deps.consoleUrl).origin;
  const requests = SCENARIO_FAMILIES.flatMap((family) => family.requests.map((request) => ({ request, values: family.values })));
  const body = html`<p>On this sandbox stage a request can force an answer that is rare in production: send the header <code>${SCENARIO_HEADER}</code> with one of the values its request takes. It applies to that one request; there is nothing to switch on here and nothing is stored. A value the request does not take is a 400 naming <code>${SCENARIO_HEADER}</code>; production ignores the header.</p>
<p>The examples read these shell variables; the dates and guests are the API reference's, change them to suit your listing.</p>
<dl>${VARIABLES.map(([name, what]) => html`<dt><code>${name}</code></dt><dd>${what}</dd>`)}</dl>
<nav aria-label="Requests taking a scenario"><ul>${requests.map(
    ({ request }) => html`<li><a href="#${anchorOf(request)}"><code>${request.method} ${request.path}</code></a>: ${request.summary}</li>`,
  )}</ul></nav>
${requests.map(
  ({ request, values }) => html`<section aria-labelledby="${anchorOf(request)}">
<h2 id="${anchorOf(request)}"><code>${request.method} ${request.path}</code></h2>
<p>${request.summary}.</p>
${values.map(
  ({ value, effect }) => html`<h3><code>${value}</code></h3>
<p>${withCode(effect)}</p>
<pre tabindex="0" aria-label="Example: ${request.method} ${request.path} with ${value}">${exampleRequest(origin, request, value)}</pre>`,
)}
</section>`,
)}`;
  return htmlResult(
    200,
    page('Test scenarios', body, ctx.viewer, (section) => can(ctx.person.access, section as Capability), 'sandbox-header'),
  );
}
