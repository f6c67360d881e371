import type { Minor } from '../money.ts';

/** The service's own GST registration in one state; invoices are issued per registration. */
export interface GstRegistration {
  readonly state: string;
  /** Two-digit GST state code; the GSTIN starts with it. */
  readonly stateCode: string;
  readonly gstin: string;
  readonly legalName: string;
  readonly address: string;
  /**
   * Marked for e-invoicing (its turnover brings it under the mandate): its B2B invoices are
   * registered with the IRP before they are issued. Absent = false.
   */
  readonly eInvoicing?: boolean;
  /**
   * Subject to the IRP's 30-day reporting window (its aggregate turnover is ₹10 crore or more;
   * domain/invoicing/reporting-window.ts): a document past it is never sent, and one close to
   * it is alerted on. Absent = false.
   */
  readonly irpReportingWindow?: boolean;
}

export interface GstSlab {
  /** Inclusive upper bound of the value of one unit-night; null = no bound (the top slab). */
  readonly upToPerUnitNight: Minor | null;
  readonly ratePercent: number;
}

/** The slab table in force from effectiveFrom until the next table's date. */
export interface GstSlabTable {
  readonly effectiveFrom: string;
  readonly slabs: readonly GstSlab[];
}

/** The table in force on a date (yyyy-mm-dd), or undefined before the first one. */
export function slabTableOn(tables: readonly GstSlabTable[], date: string): GstSlabTable | undefined {
  let found: GstSlabTable | undefined;
  for (const t of tables) if (t.effectiveFrom <= date && (!found || t.effectiveFrom > found.effectiveFrom)) found = t;
  return found;
}

/** GST percent for one unit-night of this value under a slab table. */
export function gstRatePercent(table: GstSlabTable, unitNightValue: Minor): number {
  for (const slab of table.slabs) if (slab.upToPerUnitNight === null || unitNightValue <= slab.upToPerUnitNight) return slab.ratePercent;
  throw new RangeError(`slab table ${table.effectiveFrom} has no open-ended top slab`);
}
