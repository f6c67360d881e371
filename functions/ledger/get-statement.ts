import { CSV_MEDIA_TYPE, statementCsv } from '../../domain/ledger/ledger-csv.ts';
import { getStatement } from '../../domain/ledger/read-ledger.ts';
import { PDF_MEDIA_TYPE, statementFileName, statementPdf } from '../../domain/ledger/statement-file.ts';
import { statementRenderer } from '../../infra/pdf/statement-renderer.ts';
import { getStatementRoute } from '../contracts/ledger.ts';
import { endpoint } from '../http/endpoint.ts';
import { preferredMediaType } from '../http/negotiate.ts';
import { documentReply } from '../http/responses.ts';

export const handler = endpoint(getStatementRoute, async ({ principal, query, services, event }) => {
  const statement = await getStatement(services, principal, query);
  const wanted = preferredMediaType(event.headers?.accept, ['application/json', CSV_MEDIA_TYPE, PDF_MEDIA_TYPE]);
  if (wanted === CSV_MEDIA_TYPE) {
    return documentReply(`${CSV_MEDIA_TYPE}; charset=utf-8`, statementCsv(statement), {
      'Content-Disposition': `attachment; filename="${statementFileName(statement, 'csv')}"`,
      Vary: 'Accept',
    });
  }
  if (wanted === PDF_MEDIA_TYPE) {
    const group = await services.tenants.getAgentGroup(principal.agentGroupId);
    // Authentication found the group: its absence now is a fault, not the caller's 404.
    if (!group) throw new Error(`agent group ${principal.agentGroupId} authenticated but not found`);
    return documentReply(PDF_MEDIA_TYPE, await statementPdf(statementRenderer, group, statement), {
      'Content-Disposition': `attachment; filename="${statementFileName(statement, 'pdf')}"`,
      Vary: 'Accept',
    });
  }
  return { status: 200, body: statement, headers: { Vary: 'Accept' } };
});
