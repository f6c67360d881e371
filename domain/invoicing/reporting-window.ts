import { addDays, daysBetween } from '../catalogue/calendar.ts';
import type { GstRegistration } from '../catalogue/gst.ts';

/**
 * The IRP's reporting window (GSTN advisory of 5 November 2024): from 1 April 2025 a taxpayer
 * with aggregate turnover (AATO) of ₹10 crore or more cannot report a document, invoice or
 * credit note alike, dated more than 30 days before the day it is reported. The advisory's
 * example counts the document's own date as the first day: "if an invoice is dated 1st April
 * 2025, it cannot be reported after 30th April 2025". Whether a registration is subject to it
 * is a setting (`irpReportingWindow`), since it depends on the taxpayer's turnover.
 */
export const REPORTING_WINDOW_DAYS = 30;
/** How many days before the last day a document still waiting for the IRP is alerted on. */
export const REPORTING_WINDOW_WARNING_DAYS = 7;
/** The portal's code for a document past the window (docs/conformance/irp.md). */
export const PAST_REPORTING_WINDOW_CODE = '2305';

export const REPORTING_WINDOW_LAW =
  'GSTN advisory of 5 November 2024: taxpayers with an AATO of 10 crores and above "would not be allowed to report e-Invoices older than 30 days from the date of reporting"';

export interface ReportingWindow {
  /** The last day (India) on which the IRP accepts the document. */
  readonly lastDay: string;
  /** Whole days from today to the last day; negative once it has passed. */
  readonly daysLeft: number;
  /** Within the warning days of its last day (still reportable). */
  readonly closing: boolean;
  /** Past its last day: the IRP refuses it (2305). */
  readonly closed: boolean;
}

/** The window of a document dated `documentDate` of this registration, as of `today` (India); undefined when the registration is not subject to it. */
export function reportingWindowOf(
  registration: Pick<GstRegistration, 'irpReportingWindow'> | undefined,
  documentDate: string,
  today: string,
): ReportingWindow | undefined {
  if (!registration?.irpReportingWindow) return undefined;
  const lastDay = addDays(documentDate, REPORTING_WINDOW_DAYS - 1);
  const daysLeft = daysBetween(today, lastDay);
  return { lastDay, daysLeft, closing: daysLeft >= 0 && daysLeft < REPORTING_WINDOW_WARNING_DAYS, closed: daysLeft < 0 };
}

/** What a document past its window says, in the law's words and with what the operator does (docs/receivables.md). */
export const pastWindowText = (documentDate: string, lastDay: string): string =>
  `past the IRP's 30-day reporting window (document dated ${documentDate}, last day ${lastDay}; ${REPORTING_WINDOW_LAW}); the IRP will not register it, so it is not sent again: it needs a new document (docs/receivables.md "The 30-day reporting window")`;

/** What a document close to its window's end adds to its failure. */
export const closingWindowText = (w: ReportingWindow): string =>
  `${w.daysLeft === 0 ? 'today is' : `${w.daysLeft} day(s) to`} the last day (${w.lastDay}) of the IRP's 30-day reporting window`;
