import { describe, expect, it } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { reportingWindowOf } from '../../domain/invoicing/reporting-window.ts';

/** The IRP's 30-day reporting window (GSTN advisory of 5 November 2024), per registration setting. */
describe('reportingWindowOf', () => {
  const subject = { irpReportingWindow: true };

  it("counts the document date as the first day, as the advisory's example: dated 1 April 2025, reportable until 30 April, refused from 1 May", () => {
    expect(reportingWindowOf(subject, '2025-04-01', '2025-04-30')).toEqual({ lastDay: '2025-04-30', daysLeft: 0, closing: true, closed: false });
    expect(reportingWindowOf(subject, '2025-04-01', '2025-05-01')).toEqual({ lastDay: '2025-04-30', daysLeft: -1, closing: false, closed: true });
  });

  it('warns in the last 7 days (daysLeft 6…0) and not before', () => {
    expect(reportingWindowOf(subject, '2026-11-01', addDays('2026-11-30', -7))).toMatchObject({ daysLeft: 7, closing: false, closed: false });
    expect(reportingWindowOf(subject, '2026-11-01', addDays('2026-11-30', -6))).toMatchObject({ daysLeft: 6, closing: true, closed: false });
    expect(reportingWindowOf(subject, '2026-11-01', '2026-11-01')).toMatchObject({ daysLeft: 29, closing: false });
  });

  it('has no window for a registration below the turnover threshold (the setting absent or false)', () => {
    expect(reportingWindowOf({}, '2025-04-01', '2026-04-01')).toBeUndefined();
    expect(reportingWindowOf({ irpReportingWindow: false }, '2025-04-01', '2026-04-01')).toBeUndefined();
    expect(reportingWindowOf(undefined, '2025-04-01', '2026-04-01')).toBeUndefined();
  });
});
