import { removeContact } from '../../domain/mail/finance-contacts.ts';
import { deleteFinanceContactRoute } from '../contracts/finance-contacts.ts';
import { auditOrigin } from '../http/audit-origin.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(deleteFinanceContactRoute, async ({ principal, params, services, state }) => {
  await removeContact(services, principal.agentGroupId, params.contactId, auditOrigin(principal, state));
  return { status: 204, body: undefined };
});
