import type { StatementRenderer } from '../ports/statement-renderer.ts';
import { indiaToday } from '../reads/date-window.ts';
import type { AgentGroup } from '../tenants.ts';
import type { StatementView } from './read-ledger.ts';

export const PDF_MEDIA_TYPE = 'application/pdf';

/**
 * A statement file's name, in India dates as its rows are dated: from=2026-11-01 (IST) is
 * 2026-10-31T18:30Z, so `statement-2026-11-01-to-2026-11-30.pdf`. The API, the console and
 * the monthly e-mail name their CSV and PDF alike.
 */
export const statementFileName = (s: Pick<StatementView, 'from' | 'to'>, ext: 'csv' | 'pdf'): string =>
  `statement-${indiaToday(new Date(s.from))}-to-${indiaToday(new Date(s.to))}.${ext}`;

/** The statement as a PDF, headed by the group's legal name and GSTIN (as its invoices are addressed). */
export const statementPdf = (renderer: StatementRenderer, group: Pick<AgentGroup, 'legalName' | 'gstin'>, s: StatementView): Promise<Uint8Array> =>
  renderer.render(s, { name: group.legalName, gstin: group.gstin });
