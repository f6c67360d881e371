import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { applyAmendmentRoute } from '../../functions/contracts/amendments.ts';
import { createBookingRoute } from '../../functions/contracts/bookings.ts';
import { createBillingRunRoute } from '../../functions/contracts/invoices.ts';
import { createOrderRoute, previewOrderRoute, repriceOrderRoute } from '../../functions/contracts/orders.ts';
import { exampleRequest } from '../../functions/console/sandbox-scenarios.ts';
import type { AnySchema } from '../../functions/http/route.ts';
import { SCENARIO_FAMILIES } from '../../functions/openapi/scenario-descriptions.ts';

/** What a developer's shell would put in place of each variable and expression the examples use. */
const SHELL: Readonly<Record<string, string>> = {
  $LISTING_ID: 'villa-one',
  $PROPERTY_ID: 'villa-one-p1',
  $ORDER_ID: randomUUID(),
  $ACCEPTED_TOTAL: '10500',
  '$(date +%s)': '1796000000',
};
const expand = (text: string) => Object.entries(SHELL).reduce((t, [name, value]) => t.replaceAll(name, value), text);

const BODIES: Readonly<Record<string, AnySchema | undefined>> = Object.fromEntries(
  [previewOrderRoute, createOrderRoute, repriceOrderRoute, createBookingRoute, applyAmendmentRoute, createBillingRunRoute].map((r) => [r.operationId, r.body]),
);

describe('the test scenarios page’s example requests', () => {
  it('send each value to its request with a body its contract accepts once the shell has filled the stage’s ids', () => {
    for (const family of SCENARIO_FAMILIES) {
      for (const request of family.requests) {
        for (const { value } of family.values) {
          const example = exampleRequest('https://sandbox.example.in', request, value);
          expect(example).toContain(
            `-X ${request.method} "https://sandbox.example.in${request.path.replace(/\{\w+\}/, (p) => (p === '{orderId}' ? '$ORDER_ID' : '$BOOKING_ID'))}"`,
          );
          expect(example).toContain(`-H 'X-Test-Scenario: ${value}'`);
          const body = /<<JSON\n([\s\S]*)\nJSON$/.exec(example)?.[1];
          const schema = BODIES[request.operationId];
          if (body === undefined) {
            // Only a request whose contract needs no body goes without one.
            expect(request.operationId === 'repriceOrder' || request.operationId === 'runBilling', request.operationId).toBe(true);
            continue;
          }
          expect(body).not.toMatch(/onlya-|127\.0\.0\.1/);
          const parsed = v.safeParse(schema!, JSON.parse(expand(body)));
          expect(parsed.issues, `${request.operationId} ${value}`).toBeUndefined();
        }
      }
    }
  });
});
