import { getStatement } from '../../domain/ledger/read-ledger.ts';
import { getStatementRoute } from '../contracts/ledger.ts';
import { endpoint } from '../http/endpoint.ts';

export const handler = endpoint(getStatementRoute, async ({ principal, query, services }) => ({
  status: 200,
  body: await getStatement(services, principal, query),
}));
