import { addContact } from '../../domain/mail/finance-contacts.ts';
import { createFinanceContactRoute } from '../contracts/finance-contacts.ts';
import { auditOrigin } from '../http/audit-origin.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(createFinanceContactRoute, async ({ principal, body, services, state }) => ({
  status: 201,
  body: await addContact(services, principal.agentGroupId, body, auditOrigin(principal, state)),
}));
