import type { StatementView } from '../ledger/read-ledger.ts';

/** Whose statement it is, as its header prints it: the agent group's name and GSTIN (null when none is on file). */
export interface StatementHolder {
  readonly name: string;
  readonly gstin: string | null;
}

/** Prints `GET /v1/statement`'s answer as a PDF; the same statement always gives the same bytes. */
export interface StatementRenderer {
  render(statement: StatementView, holder: StatementHolder): Promise<Uint8Array>;
}
