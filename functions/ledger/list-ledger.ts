import { listLedger } from '../../domain/ledger/read-ledger.ts';
import { listLedgerRoute } from '../contracts/ledger.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(listLedgerRoute, async ({ principal, query, services }) => ({
  status: 200,
  body: await listLedger(services, principal, query),
}));
