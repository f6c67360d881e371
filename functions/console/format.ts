import { formatInr, parseRupees, type Minor } from '../../domain/money.ts';
import { printedDate } from '../../domain/invoicing/invoice-document.ts';

/** ₹1,23,456.78 from paise (domain/money.ts does the grouping). */
export const money = (amount: Minor): string => formatInr(amount);

/** ₹ from a read model's rupee figure (the API's views carry rupees), exactly: parsed to paise, not multiplied. */
export function rupeesMoney(rupees: number): string {
  const minor = parseRupees(rupees);
  if (minor === undefined) throw new Error(`not a rupee amount: ${rupees}`);
  return formatInr(minor);
}

/** An India date as printed on our invoices: 02-11-2026. */
export const indiaDate = (isoDate: string): string => printedDate(isoDate);

const IST = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

/** An instant in IST, labelled: "02 Nov 2026, 10:00 IST". */
export const istDateTime = (instant: string): string => `${IST.format(new Date(instant))} IST`;
