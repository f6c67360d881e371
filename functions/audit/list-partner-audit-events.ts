import { listAuditEvents } from '../../domain/audit/read-audit-events.ts';
import { listPartnerAuditEventsRoute } from '../contracts/audit.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(listPartnerAuditEventsRoute, async ({ principal, query, services }) => ({
  status: 200,
  body: await listAuditEvents(services, principal, query),
}));
