import { updateContact } from '../../domain/mail/finance-contacts.ts';
import { updateFinanceContactRoute } from '../contracts/finance-contacts.ts';
import { auditOrigin } from '../http/audit-origin.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(updateFinanceContactRoute, async ({ principal, params, body, services, state }) => ({
  status: 200,
  body: await updateContact(services, principal.agentGroupId, params.contactId, body, auditOrigin(principal, state)),
}));
