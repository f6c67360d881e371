import type { StatementRenderer } from '../../domain/ports/statement-renderer.ts';
import { onFirstCall } from '../lazy.ts';

/**
 * The statement PDF renderer, pdf-lib, fontkit and the fonts loaded at the first statement, not
 * at the cold start (docs/performance.md). Only the functions that print statements import this
 * (GET /v1/statement, the console, the daily run's monthly e-mail): their artifacts carry the fonts.
 */
export const statementRenderer = onFirstCall<StatementRenderer>(async () => new (await import('./pdf-statement-renderer.ts')).PdfStatementRenderer());

/** The daily run's dependencies with the renderer its monthly statement e-mail attaches the PDF with. */
export const withStatementPdf = <D extends { readonly mail?: object }>(deps: D): D =>
  deps.mail ? { ...deps, mail: { ...deps.mail, statementRenderer } } : deps;
