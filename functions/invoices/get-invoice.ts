import { getInvoice } from '../../domain/invoicing/read-invoices.ts';
import { getInvoiceRoute } from '../contracts/invoices.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(getInvoiceRoute, async ({ principal, params, services }) => ({
  status: 200,
  body: await getInvoice(services, principal, params.id),
}));
