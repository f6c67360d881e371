import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chainEvent, changedFields, verifyChain, type AuditDraft, type AuditEvent } from '../../domain/audit/audit-event.ts';
import { bookingAudit } from '../../domain/bookings/booking-audit.ts';
import type { Booking } from '../../domain/bookings/booking.ts';
import { bookingFixture } from '../support/booking-seed.ts';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const origin = { actor: 'key-1', actorKind: 'partner-key' as const, requestId: 'req-1' };
const draft = (n: number, after: AuditDraft['after']): AuditDraft => ({
  id: `e${n}`,
  at: `2026-11-26T10:00:0${n}.000Z`,
  origin,
  action: 'group.limit-changed',
  target: 'group:g1',
  account: 'g1',
  before: null,
  after,
});

function chainOf(count: number): AuditEvent[] {
  const events: AuditEvent[] = [];
  for (let n = 1; n <= count; n++) events.push(chainEvent(draft(n, { creditLimit: n * 100 }), 'test', events.at(-1) ?? null, sha256));
  return events;
}

describe('Function: changedFields', () => {
  it('keeps only the fields that moved', () => {
    expect(changedFields({ a: 1, b: 'x', c: null }, { a: 2, b: 'x', c: null })).toEqual({ before: { a: 1 }, after: { a: 2 } });
  });

  it('never keeps a guest field or a secret, even when a builder passes one', () => {
    const out = changedFields(null, { email: 'a@b.c', phone: '1', primaryGuest: 'x', signingSecret: 's', status: 'ACTIVE' } as never);
    expect(out.after).toEqual({ status: 'ACTIVE' });
  });
});

describe('Function: bookingAudit', () => {
  it('records ids, states, dates and money of a booking, never its guests', () => {
    // prepare
    const guest = { firstName: 'Asha', lastName: 'Rao', email: 'asha.rao@example.com', phone: '+91 98200 12345' };
    const booking: Booking = {
      ...bookingFixture({ agentGroupId: 'g1', partnerId: 'p1', channelId: 'c1' }),
      primaryGuest: guest,
      additionalGuests: [{ firstName: 'Ravi', email: 'ravi@example.com' }],
      specialRequests: 'Asha needs a cot',
    };
    const cancelled: Booking = {
      ...booking,
      status: 'CANCELLED',
      cancellation: { cancelledAt: booking.updatedAt, reason: 'Asha Rao is ill', refundPercentage: 50, refundAmount: 1000, refundEntryId: 'r1' },
    };
    // act
    const event = chainEvent(bookingAudit(origin, 'e1', booking.updatedAt, 'booking.cancelled', booking, cancelled), 'test', null, sha256);
    // assess
    const text = JSON.stringify(event);
    for (const value of ['Asha', 'Rao', 'asha.rao@example.com', '98200', 'Ravi', 'ravi@example.com', 'cot', 'ill']) expect(text).not.toContain(value);
    expect(event.before).toEqual({ status: booking.status, refundAmount: null, refundPercentage: null });
    expect(event.after).toEqual({ status: 'CANCELLED', refundAmount: 1000, refundPercentage: 50 });
  });
});

describe('Function: verifyChain', () => {
  it('accepts an intact chain whose head names its last event', () => {
    const events = chainOf(3);
    expect(verifyChain('group:g1', events, { seq: 3, hash: events[2]!.hash }, sha256)).toBeNull();
  });

  it('names an edited event', () => {
    const events = chainOf(3);
    const edited = [events[0]!, { ...events[1]!, after: { creditLimit: 999_999 } }, events[2]!];
    expect(verifyChain('group:g1', edited, { seq: 3, hash: events[2]!.hash }, sha256)).toMatchObject({
      seq: 2,
      eventId: 'e2',
      reason: expect.stringContaining('edited'),
    });
  });

  it('names a deleted event in the middle and at the end', () => {
    const events = chainOf(3);
    const head = { seq: 3, hash: events[2]!.hash };
    expect(verifyChain('group:g1', [events[0]!, events[2]!], head, sha256)).toMatchObject({ seq: 2, reason: expect.stringContaining('missing') });
    expect(verifyChain('group:g1', events.slice(0, 2), head, sha256)).toMatchObject({ seq: 3, reason: expect.stringContaining('deleted') });
  });

  it('names an event re-hashed after an edit by its successor', () => {
    const events = chainOf(3);
    const { hash: _, ...rest } = { ...events[1]!, after: { creditLimit: 1 } };
    const rehashed = { ...rest, hash: sha256(JSON.stringify(rest)) };
    expect(verifyChain('group:g1', [events[0]!, rehashed, events[2]!], { seq: 3, hash: events[2]!.hash }, sha256)).toMatchObject({ seq: 2 });
  });
});
