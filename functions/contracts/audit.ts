import * as v from 'valibot';
import { AUDIT_PAGE } from '../../domain/audit/read-audit-events.ts';
import { defineRoute } from '../http/route.ts';
import { AUTHENTICATED_ERRORS, cursorPageOf, DateTimeSchema, pageSizeParam } from './common.ts';
import { instantParam } from './ledger.ts';

export const AuditEventsQuerySchema = v.strictObject({
  from: v.optional(instantParam('from', 'Only events at or after this instant.')),
  to: v.optional(instantParam('to', 'Only events at or before this instant; not before from.')),
  cursor: v.optional(
    v.pipe(v.string(), v.minLength(1, 'cursor must not be empty.'), v.description('nextCursor of the previous page, unchanged, with the same from and to.')),
  ),
  size: v.optional(pageSizeParam(AUDIT_PAGE.maxSize, `Page size, 1–${AUDIT_PAGE.maxSize}; default ${AUDIT_PAGE.defaultSize}.`)),
});

const Fields = v.pipe(
  v.nullable(v.record(v.string(), v.unknown())),
  v.description('Only the fields that changed: ids, states, dates and money in paise. Never secrets or guest personal data.'),
);

export const AuditEventSchema = v.object({
  id: v.pipe(v.string(), v.description('The event id.')),
  at: v.pipe(DateTimeSchema, v.description('When it happened.')),
  actor: v.pipe(
    v.string(),
    v.description(
      'Your API key id (partner-key), one of your people signed in to the console (person: person:<id>), the role "operator" for any of our operators (never the person), or a job (system). An operator\'s event shows what changed (for a command: its options and status), never an internal error; its hash is that of the event as recorded, so check such events by their links (prevHash).',
    ),
  ),
  actorKind: v.pipe(
    v.picklist(['operator', 'partner-key', 'person', 'system']),
    v.description('The kind of actor: an operator, one of your API keys, one of your people, or a job.'),
  ),
  action: v.pipe(v.string(), v.description('What happened, e.g. booking.created, booking.cancelled, booking.amendment-requested, group.updated, key.issued.')),
  target: v.pipe(v.string(), v.description('What it happened to, <kind>:<id>, e.g. booking:<bookingRef>.')),
  before: Fields,
  after: Fields,
  requestId: v.pipe(v.string(), v.description('The X-Request-Id of the request that made the change, or the operator run id.')),
  seq: v.pipe(v.number(), v.description("The event's position in its target's chain, from 1.")),
  prevHash: v.pipe(v.string(), v.description("SHA-256 of the chain's previous event (64 zeros for the first).")),
  hash: v.pipe(v.string(), v.description('SHA-256 of this event (docs: audit trail).')),
});

export const AuditEventsPageSchema = cursorPageOf(AuditEventSchema, 'The events of this page, newest first.');

export const listAuditEventsRoute = defineRoute({
  operationId: 'listAuditEvents',
  method: 'GET',
  path: '/v1/audit-events',
  auth: 'v1',
  summary: "Your agent group's audit trail",
  description: [
    "Every money or access change to your account — your bookings, cancellations and amendment requests, and an operator's changes to your limits, holds, terms and keys — oldest first (at, then id),",
    'with who made it (actor, actorKind), what changed (before and after: only the changed fields) and the request id.',
    'Events are append-only and chained by hash per target. nextCursor is returned whenever the page came back full and more may follow, null otherwise; a cursor is bound to your key and to from and to.',
  ].join(' '),
  tags: ['Audit'],
  query: AuditEventsQuerySchema,
  responses: { 200: { description: 'One page of events.', schema: AuditEventsPageSchema }, ...AUTHENTICATED_ERRORS },
});

export const listPartnerAuditEventsRoute = defineRoute({
  operationId: 'listPartnerAuditEvents',
  method: 'GET',
  path: '/api/audit-events',
  auth: 'api',
  summary: "Your partner account's audit trail",
  description: [
    "Every change to your partner account itself — your webhook endpoints and their secrets (recorded as set, none or rotated, never the value), and an operator's changes to your partner and its keys — oldest first (at, then id).",
    "Your agent groups' bookings and limits are on each group's own trail (GET /v1/audit-events with the group's key). Paging, cursors and the fields are those of GET /v1/audit-events.",
  ].join(' '),
  tags: ['Audit'],
  query: AuditEventsQuerySchema,
  responses: { 200: { description: 'One page of events.', schema: AuditEventsPageSchema }, ...AUTHENTICATED_ERRORS },
});
