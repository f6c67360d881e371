import { CSV_MEDIA_TYPE, statementCsv } from '../../domain/ledger/ledger-csv.ts';
import { getStatement } from '../../domain/ledger/read-ledger.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { getStatementRoute } from '../contracts/ledger.ts';
import { endpoint } from '../http/endpoint.ts';
import { preferredMediaType } from '../http/negotiate.ts';
import { documentReply } from '../http/responses.ts';

export const handler = endpoint(getStatementRoute, async ({ principal, query, services, event }) => {
  const statement = await getStatement(services, principal, query);
  if (preferredMediaType(event.headers?.accept, ['application/json', CSV_MEDIA_TYPE]) === CSV_MEDIA_TYPE) {
    // India dates, as the rows are dated: from=2026-11-01 (IST) is 2026-10-31T18:30Z.
    const name = `statement-${indiaToday(new Date(statement.from))}-to-${indiaToday(new Date(statement.to))}.csv`;
    return documentReply(`${CSV_MEDIA_TYPE}; charset=utf-8`, statementCsv(statement), {
      'Content-Disposition': `attachment; filename="${name}"`,
      Vary: 'Accept',
    });
  }
  return { status: 200, body: statement, headers: { Vary: 'Accept' } };
});
