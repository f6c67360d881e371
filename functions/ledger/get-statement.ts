import { CSV_MEDIA_TYPE, statementCsv } from '../../domain/ledger/ledger-csv.ts';
import { getStatement } from '../../domain/ledger/read-ledger.ts';
import { getStatementRoute } from '../contracts/ledger.ts';
import { endpoint } from '../http/endpoint.ts';
import { preferredMediaType } from '../http/negotiate.ts';
import { documentReply } from '../http/responses.ts';

export const handler = endpoint(getStatementRoute, async ({ principal, query, services, event }) => {
  const statement = await getStatement(services, principal, query);
  if (preferredMediaType(event.headers?.accept, ['application/json', CSV_MEDIA_TYPE]) === CSV_MEDIA_TYPE) {
    const name = `statement-${statement.from.slice(0, 10)}-to-${statement.to.slice(0, 10)}.csv`;
    return documentReply(`${CSV_MEDIA_TYPE}; charset=utf-8`, statementCsv(statement), { 'Content-Disposition': `attachment; filename="${name}"`, Vary: 'Accept' });
  }
  return { status: 200, body: statement, headers: { Vary: 'Accept' } };
});
