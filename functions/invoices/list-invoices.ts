import { listInvoices } from '../../domain/invoicing/read-invoices.ts';
import { listInvoicesRoute } from '../contracts/invoices.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(listInvoicesRoute, async ({ principal, query, services }) => ({
  status: 200,
  body: await listInvoices(services, principal, query),
}));
