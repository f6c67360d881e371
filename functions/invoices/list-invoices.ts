import { listInvoices } from '../../domain/invoicing/read-invoices.ts';
import { billingDeps } from '../../infra/container.ts';
import { listInvoicesRoute } from '../contracts/invoices.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(listInvoicesRoute, async ({ principal, query, services }) => ({
  status: 200,
  body: await listInvoices({ ...billingDeps(services), cursors: services.cursors }, principal, query),
}));
