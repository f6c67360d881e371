import { listContacts } from '../../domain/mail/finance-contacts.ts';
import { listFinanceContactsRoute } from '../contracts/finance-contacts.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(listFinanceContactsRoute, async ({ principal, services }) => ({
  status: 200,
  body: { data: await listContacts(services, principal.agentGroupId) },
}));
