import { CSV_MEDIA_TYPE, ledgerPageCsv } from '../../domain/ledger/ledger-csv.ts';
import { listLedger } from '../../domain/ledger/read-ledger.ts';
import { listLedgerRoute } from '../contracts/ledger.ts';
import { endpoint } from '../http/endpoint.ts';
import { preferredMediaType } from '../http/negotiate.ts';
import { documentReply } from '../http/responses.ts';

export const handler = endpoint(listLedgerRoute, async ({ principal, query, services, event }) => {
  const page = await listLedger(services, principal, query);
  if (preferredMediaType(event.headers?.accept, ['application/json', CSV_MEDIA_TYPE]) === CSV_MEDIA_TYPE) {
    // A CSV has no place for the cursor, so it travels in a header, as a page's next link would.
    const next: Record<string, string> = page.nextCursor ? { 'X-Next-Cursor': page.nextCursor } : {};
    return documentReply(`${CSV_MEDIA_TYPE}; charset=utf-8`, ledgerPageCsv(page), {
      'Content-Disposition': 'attachment; filename="ledger.csv"',
      Vary: 'Accept',
      ...next,
    });
  }
  return { status: 200, body: page, headers: { Vary: 'Accept' } };
});
