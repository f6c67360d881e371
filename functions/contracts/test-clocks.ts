import * as v from 'valibot';
import { TEST_CLOCK_SPAN_YEARS, TEST_CLOCK_STATUSES } from '../../domain/test-clocks/test-clock.ts';
import { defineRoute } from '../http/route.ts';
import { AUTHENTICATED_ERRORS, DateTimeSchema, ErrorBodySchema, instantSchema, listOf } from './common.ts';

const TAG = ['Test clocks (sandbox)'];
const SANDBOX_ONLY = 'Sandbox stages only: elsewhere the answer is `404 ROUTE_NOT_FOUND`, as for a path no operation serves (docs/sandbox.md).';

export const TestClockSchema = v.object({
  id: v.pipe(v.string(), v.uuid(), v.description('The clock id.')),
  agentGroupId: v.pipe(v.string(), v.description('The group whose time the clock is.')),
  now: v.pipe(DateTimeSchema, v.description("The clock's time when this answer was made: it runs at real speed from the instant it was last advanced to.")),
  status: v.pipe(
    v.picklist(TEST_CLOCK_STATUSES),
    v.description('`advancing` while the work the last advance made due (billing of closed periods, credit control) runs; `ready` after.'),
  ),
  createdAt: v.pipe(DateTimeSchema, v.description('Real instant of creation; the clock started at it.')),
  advanceLimit: v.pipe(DateTimeSchema, v.description(`The latest instant the clock may be advanced to: ${TEST_CLOCK_SPAN_YEARS} years after createdAt.`)),
});

export const TestClockIdParamsSchema = v.object({ id: v.pipe(v.string(), v.uuid('id must be a UUID.'), v.description('The clock id.')) });

export const CreateTestClockBodySchema = v.optional(
  v.strictObject({
    agentGroupId: v.optional(
      v.pipe(
        v.string('agentGroupId must be a string.'),
        v.minLength(1, 'agentGroupId must not be empty.'),
        v.maxLength(64, 'agentGroupId is at most 64 characters.'),
        v.description("The caller's own group (the default); any other group is a 404."),
      ),
    ),
  }),
);

export const AdvanceTestClockBodySchema = v.strictObject({
  to: v.pipe(
    instantSchema('to'),
    v.description(
      `The clock's new time: not before its current time, at most ${TEST_CLOCK_SPAN_YEARS} years after its creation; a date not in the calendar (2027-02-31) is a 400, never rolled over.`,
    ),
  ),
});

const NOT_FOUND = { 404: { description: 'No such test clock for this group (or not a sandbox stage).', schema: ErrorBodySchema } } as const;

export const listTestClocksRoute = defineRoute({
  operationId: 'listTestClocks',
  method: 'GET',
  path: '/v1/test-clocks',
  auth: 'v1',
  sandboxOnly: true,
  summary: "The group's test clock, if it has one",
  description: SANDBOX_ONLY,
  tags: TAG,
  responses: {
    200: { description: 'Empty, or the one clock.', schema: listOf(TestClockSchema, "Your group's clock, if it has one.") },
    404: { description: 'Not a sandbox stage.', schema: ErrorBodySchema },
    ...AUTHENTICATED_ERRORS,
  },
});

export const createTestClockRoute = defineRoute({
  operationId: 'createTestClock',
  method: 'POST',
  idempotencyKey: true,
  path: '/v1/test-clocks',
  auth: 'v1',
  sandboxOnly: true,
  summary: 'Put the group on a test clock',
  description: `${SANDBOX_ONLY} The clock starts at the real now; from then on everything that reads "now" for the group (stays starting and ending, invoices falling due and overdue, billing periods closing, callback timestamps) reads the clock. Other groups keep real time.`,
  tags: TAG,
  body: CreateTestClockBodySchema,
  bodyOptional: true,
  responses: {
    201: { description: 'Created.', schema: TestClockSchema },
    404: { description: "agentGroupId is not the caller's group (or not a sandbox stage).", schema: ErrorBodySchema },
    409: { description: 'The group already has a test clock.', schema: ErrorBodySchema },
    ...AUTHENTICATED_ERRORS,
  },
});

export const getTestClockRoute = defineRoute({
  operationId: 'getTestClock',
  method: 'GET',
  path: '/v1/test-clocks/{id}',
  auth: 'v1',
  sandboxOnly: true,
  summary: 'Get a test clock',
  description: SANDBOX_ONLY,
  tags: TAG,
  params: TestClockIdParamsSchema,
  responses: { 200: { description: 'The clock.', schema: TestClockSchema }, ...NOT_FOUND, ...AUTHENTICATED_ERRORS },
});

export const advanceTestClockRoute = defineRoute({
  operationId: 'advanceTestClock',
  method: 'POST',
  path: '/v1/test-clocks/{id}/advance',
  auth: 'v1',
  sandboxOnly: true,
  summary: 'Move a test clock forward',
  description: `${SANDBOX_ONLY} The clock jumps to \`to\`, then the work that became due for the group runs at that time through the daily run's own code: every billing period that closed is billed (the run after midnight India time), and credit control evaluates overdue invoices. The answer comes when that work is done (\`status: ready\`); if it failed the clock stays \`advancing\` and advancing again runs it again.`,
  tags: TAG,
  params: TestClockIdParamsSchema,
  body: AdvanceTestClockBodySchema,
  responses: {
    200: { description: 'The clock at its new time.', schema: TestClockSchema },
    ...NOT_FOUND,
    ...AUTHENTICATED_ERRORS,
    429: {
      description:
        'Rate limit exhausted for this credential, or a billing run for your account is in progress; wait Retry-After seconds and advance again (the clock stays `advancing` at its new time).',
      schema: ErrorBodySchema,
    },
  },
});

export const deleteTestClockRoute = defineRoute({
  operationId: 'deleteTestClock',
  method: 'DELETE',
  path: '/v1/test-clocks/{id}',
  auth: 'v1',
  sandboxOnly: true,
  summary: 'Delete a test clock',
  description: `${SANDBOX_ONLY} The group is back on real time. Only a clock that was never advanced can be deleted: once advanced it runs ahead of real time, the group's bookings, invoices and ledger entries may be dated at its time, and real time would leave them in the future, so the answer is 409 with reasonCode CLOCK_AHEAD and the group keeps its clock.`,
  tags: TAG,
  params: TestClockIdParamsSchema,
  responses: {
    204: { description: 'Deleted.' },
    409: {
      description: 'reasonCode CLOCK_AHEAD: the clock was advanced, so the group may have state dated past real time; it keeps its clock.',
      schema: v.object({
        ...ErrorBodySchema.entries,
        reasonCode: v.pipe(v.picklist(['CLOCK_AHEAD']), v.description('CLOCK_AHEAD: the clock was advanced, so it cannot be deleted; the group keeps it.')),
      }),
    },
    ...NOT_FOUND,
    ...AUTHENTICATED_ERRORS,
  },
});
