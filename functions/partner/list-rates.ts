import { readRates } from '../../domain/reads/partner-reads.ts';
import { listRatesRoute } from '../contracts/partner-reads.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(listRatesRoute, async ({ principal, query, services }) => ({
  status: 200,
  body: await readRates(services, principal, query),
}));
