import { describe, expect, it } from 'vitest';
import { listAuditEvents } from '../../domain/audit/read-audit-events.ts';
import { monthWindow } from '../../domain/audit/export-month.ts';
import { addDays, eachDate, eachMonth, HORIZON, isCalendarDate, isCalendarMonth, PERSONAL_HORIZON } from '../../domain/catalogue/calendar.ts';
import { ValidationError } from '../../domain/errors.ts';
import type { AuditTrail } from '../../domain/ports/audit-trail.ts';
import { canonicalInstant, isInstant, resolveWindow } from '../../domain/reads/date-window.ts';
import { gstr1Period } from '../../domain/receivables/gstr1.ts';

const refusal = (work: () => unknown): ValidationError => {
  try {
    work();
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error('not refused');
};

describe('calendar walks count days and months, whatever the year', () => {
  it('ends eachDate at its last date at the end of 9999 (a string comparison never ended)', () => {
    expect([...eachDate('9999-12-29', '9999-12-31')]).toEqual(['9999-12-29', '9999-12-30', '9999-12-31']);
    expect([...eachDate('2028-02-28', '2028-03-01')]).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
    expect([...eachDate('2027-02-28', '2027-03-01')]).toEqual(['2027-02-28', '2027-03-01']);
    expect([...eachDate('2027-03-02', '2027-03-01')]).toEqual([]);
    expect([...eachDate('not a date', '2027-03-01')]).toEqual([]);
  });

  it('counts months across a year boundary and at 9999-12 (nextMonth gave 10000-01, which sorts before 9999-12)', () => {
    expect(eachMonth('9999-12', '9999-12')).toEqual(['9999-12']);
    expect(eachMonth('2099-11', '2100-02')).toEqual(['2099-11', '2099-12', '2100-01', '2100-02']);
    expect(eachMonth('9999-11', '10000-01')).toEqual([]);
    expect(eachMonth('2027-03', '2027-02')).toEqual([]);
  });

  it('refuses to write a date without four digits rather than wrap it', () => {
    expect(addDays('9999-12-30', 1)).toBe('9999-12-31');
    expect(() => addDays('9999-12-31', 1)).toThrow(RangeError);
  });
});

describe('the date horizon', () => {
  it.each([
    ['2000-01-01', true],
    ['2099-12-31', true],
    ['2028-02-29', true],
    ['2027-02-29', false],
    ['2027-02-31', false],
    ['1999-12-31', false],
    ['2100-01-01', false],
    ['0001-01-01', false],
    ['9999-12-31', false],
    ['10000-01-01', false],
  ])('%s is a date the service accepts: %s', (date, ok) => expect(isCalendarDate(date)).toBe(ok));

  it.each([
    ['2027-03-01T00:00:00Z', true],
    ['2028-02-29T10:00:00+05:30', true],
    ['2027-02-31T00:00:00+05:30', false],
    ['2027-02-29T00:00:00Z', false],
    ['9999-12-31T23:59:59Z', false],
    ['0001-01-01T00:00:00Z', false],
    ['+010000-01-01T00:00:00Z', false],
    ['2099-12-31T23:59:59.999Z', true],
    ['2100-01-01T03:00:00+05:30', false],
  ])('%s is an instant the service accepts: %s', (instant, ok) => expect(isInstant(instant)).toBe(ok));

  it('names the parameter and the horizon when a window lies beyond it', () => {
    const e = refusal(() => resolveWindow('9999-12-29', '9999-12-30', '2027-03-01'));
    expect(e.param).toBe('from');
    expect(e.message).toContain(`from ${HORIZON.first} to ${HORIZON.last}`);
    expect(refusal(() => resolveWindow(undefined, '2100-01-01', '2027-03-01')).param).toBe('to');
    expect(refusal(() => canonicalInstant('2027-02-31T00:00:00+05:30', 'updatedSince')).param).toBe('updatedSince');
  });

  it("lets a guest's date of birth reach back to 1900, not before, and still refuses 31 February", () => {
    expect(isCalendarDate('1990-02-03', PERSONAL_HORIZON)).toBe(true);
    expect(isCalendarDate('1899-12-31', PERSONAL_HORIZON)).toBe(false);
    expect(isCalendarDate('1990-02-31', PERSONAL_HORIZON)).toBe(false);
  });

  it('bounds the admin tool months the same way', () => {
    expect(isCalendarMonth('2099-12')).toBe(true);
    expect(isCalendarMonth('9999-12')).toBe(false);
    expect(refusal(() => monthWindow('9999-12')).param).toBe('month');
    expect(refusal(() => gstr1Period('1999-12')).param).toBe('month');
  });
});

describe('GET /v1/audit-events with from at the end of 9999', () => {
  it('is a 400 naming from, and the trail is never asked', async () => {
    let asked = 0;
    const auditTrail = { listAccount: async () => ((asked += 1), { events: [], next: null }) } as unknown as AuditTrail;
    const cursors = { encode: () => 'c', decode: () => '' };
    const caller = { kind: 'agent-group', agentGroupId: 'g', partnerId: 'p', channelId: 'c', keyId: 'k', keyPrefix: 'test' } as const;
    await expect(listAuditEvents({ auditTrail, cursors }, caller, { from: '9999-12-31T23:59:59Z' })).rejects.toMatchObject({ param: 'from' });
    expect(asked).toBe(0);
  });
});

describe('an operator as a group reads it in GET /v1/audit-events', () => {
  it('is the role, with the command and its outcome but not the person, the IAM principal or the internal error', async () => {
    const recorded = (after: Record<string, unknown>, before: Record<string, unknown> | null) => ({
      id: 'e1',
      at: '2027-03-01T00:00:00.000Z',
      actor: 'alice (arn:aws:iam::123456789012:user/alice)',
      actorKind: 'operator' as const,
      action: 'admin.billing.run',
      target: 'billing:g',
      account: 'g',
      before,
      after,
      requestId: 'r',
      stage: 'dev',
      seq: 2,
      prevHash: 'a'.repeat(64),
      hash: 'b'.repeat(64),
    });
    const events = [
      recorded({ command: 'billing run', options: ['--group=g', '--as=alice', '--from=2027-02-01'], status: 'started' }, null),
      recorded({ status: 'failed', error: 'TypeError' }, { status: 'started' }),
      recorded({ creditLimit: 300000, changedBy: 'arn:aws:iam::123456789012:user/alice' }, { creditLimit: 200000 }),
    ];
    const auditTrail = { listAccount: async () => ({ events, next: null }) } as unknown as AuditTrail;
    const caller = { kind: 'agent-group', agentGroupId: 'g', partnerId: 'p', channelId: 'c', keyId: 'k', keyPrefix: 'test' } as const;
    const page = await listAuditEvents({ auditTrail, cursors: { encode: () => 'c', decode: () => '' } }, caller, {});
    expect(page.data.map((e) => e.actor)).toEqual(['operator', 'operator', 'operator']);
    expect(page.data.map((e) => e.after)).toEqual([
      { command: 'billing run', options: ['--group=g', '--from=2027-02-01'], status: 'started' },
      { status: 'failed' },
      { creditLimit: 300000 },
    ]);
    const text = JSON.stringify(page);
    for (const hidden of ['alice', 'arn:aws', 'TypeError']) expect(text).not.toContain(hidden);
  });
});
