import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { callbackVerdictFor } from '../../domain/deliveries/attempt-delivery.ts';
import type { BookingCallbackOutcome } from '../../domain/deliveries/booking-callback.ts';
import { attemptDueAt, CALLBACK_MAX_ATTEMPTS, CALLBACK_SCHEDULE_SECONDS, nominalOffsetSeconds } from '../../domain/deliveries/schedule.ts';
import {
  bookingCallbackBody,
  CALLBACK_HEADERS,
  checkCallbackSignature,
  SIGNATURE_TOLERANCE_SECONDS,
  signCallback,
  verifyCallbackSignature,
} from '../../events/booking-callback.ts';

const SECRET = 'cbsec_unit_test_signing_secret_0001';
const T = 1_790_000_000;

const confirmed: BookingCallbackOutcome = {
  eventId: '5f0c2a8e-1b7d-4c3a-9e21-0d6b7f4a9c11',
  eventType: 'booking.confirmed',
  agentGroupId: 'group-1',
  partnerId: 'partner-1',
  bookingRef: 'bk-0001',
  callbackUrl: 'https://agent.example/callbacks',
  occurredAt: '2026-11-22T10:15:00.000Z',
  status: 'CONFIRMED',
  externalBookingId: 'EXT-42',
  bookingId: 'PMS-9001',
  reasonCode: null,
  reason: null,
};

const failed: BookingCallbackOutcome = {
  ...confirmed,
  eventId: '0a9d7b6c-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  eventType: 'booking.failed',
  status: 'FAILED',
  bookingId: null,
  reasonCode: 'BOOKING_NOT_COMPLETED',
  reason: 'The property did not confirm in time.',
};

/** The signature computed by Python's standard library, nothing of ours: what a partner's Python receiver would compute. */
function pythonSignature(t: number, rawBody: string, secret: string): string {
  const script =
    'import hmac,hashlib,sys,os; sys.stdout.write(hmac.new(os.environ["CB_SECRET"].encode(), sys.stdin.buffer.read(), hashlib.sha256).hexdigest())';
  return execFileSync('python3', ['-c', script], { input: `${t}.${rawBody}`, env: { ...process.env, CB_SECRET: secret } }).toString('utf8');
}

/** The same with the openssl CLI. */
function opensslSignature(t: number, rawBody: string, secret: string): string {
  const out = execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret], { input: `${t}.${rawBody}` }).toString('utf8');
  return out.trim().split(/\s+/).at(-1)!;
}

describe('Function: bookingCallbackBody', () => {
  it('carries exactly the contract fields, the event under both eventType and event', () => {
    // act
    const raw = bookingCallbackBody(confirmed);

    // assess
    expect(Object.keys(JSON.parse(raw))).toEqual([
      'eventId',
      'eventType',
      'event',
      'occurredAt',
      'status',
      'externalBookingId',
      'bookingId',
      'reasonCode',
      'reason',
    ]);
    expect(JSON.parse(raw)).toEqual({
      eventId: confirmed.eventId,
      eventType: 'booking.confirmed',
      event: 'booking.confirmed',
      occurredAt: '2026-11-22T10:15:00.000Z',
      status: 'CONFIRMED',
      externalBookingId: 'EXT-42',
      bookingId: 'PMS-9001',
      reasonCode: null,
      reason: null,
    });
  });

  it('gives a failure its reasonCode and reason, and a null bookingId when the booking never landed', () => {
    expect(JSON.parse(bookingCallbackBody(failed))).toMatchObject({
      status: 'FAILED',
      bookingId: null,
      reasonCode: 'BOOKING_NOT_COMPLETED',
      reason: 'The property did not confirm in time.',
    });
  });

  it('never carries the service-internal bookingRef, group or URL', () => {
    const raw = bookingCallbackBody(confirmed);

    expect(raw).not.toContain(confirmed.bookingRef);
    expect(raw).not.toContain(confirmed.agentGroupId);
    expect(raw).not.toContain(confirmed.callbackUrl);
  });

  it('names the headers as the contract does, with the neutral word', () => {
    expect(CALLBACK_HEADERS).toEqual({ eventId: 'X-Service-Event-Id', signature: 'X-Service-Signature' });
  });
});

describe('Function: signCallback', () => {
  it('is t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>.<raw body>">, as Python computes it', () => {
    // prepare
    const raw = bookingCallbackBody(confirmed);

    // act
    const header = signCallback(raw, SECRET, T);

    // assess
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(header).toBe(`t=${T},v1=${pythonSignature(T, raw, SECRET)}`);
  });

  it('agrees with openssl dgst -hmac', () => {
    const raw = bookingCallbackBody(failed);

    expect(signCallback(raw, SECRET, T)).toBe(`t=${T},v1=${opensslSignature(T, raw, SECRET)}`);
  });

  it('changes with the timestamp, so each retry carries its own signature', () => {
    const raw = bookingCallbackBody(confirmed);

    expect(signCallback(raw, SECRET, T)).not.toBe(signCallback(raw, SECRET, T + 60));
  });
});

describe('Function: checkCallbackSignature', () => {
  const raw = bookingCallbackBody(confirmed);
  const header = signCallback(raw, SECRET, T);

  it('accepts its own signature, and one Python made', () => {
    expect(checkCallbackSignature(raw, SECRET, header, T + 10)).toEqual({ ok: true, t: T });
    expect(verifyCallbackSignature(Buffer.from(raw), SECRET, `t=${T},v1=${pythonSignature(T, raw, SECRET)}`, T)).toBe(true);
  });

  it('rejects a tampered body', () => {
    const tampered = raw.replace('"CONFIRMED"', '"CANCELLED"');

    expect(checkCallbackSignature(tampered, SECRET, header, T)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('rejects the wrong secret', () => {
    expect(checkCallbackSignature(raw, 'cbsec_some_other_secret_000000', header, T)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it(`rejects a timestamp older than ${SIGNATURE_TOLERANCE_SECONDS} s, and one as far in the future`, () => {
    expect(checkCallbackSignature(raw, SECRET, header, T + SIGNATURE_TOLERANCE_SECONDS).ok).toBe(true);
    expect(checkCallbackSignature(raw, SECRET, header, T + SIGNATURE_TOLERANCE_SECONDS + 1)).toEqual({ ok: false, reason: 'stale' });
    expect(checkCallbackSignature(raw, SECRET, header, T - SIGNATURE_TOLERANCE_SECONDS - 1)).toEqual({ ok: false, reason: 'future' });
  });

  it('rejects a timestamp moved forward onto an old signature', () => {
    const v1 = header.split(',v1=')[1]!;

    expect(checkCallbackSignature(raw, SECRET, `t=${T + 100},v1=${v1}`, T + 100)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['uppercase hex', header.toUpperCase()],
    ['parts swapped', `v1=${header.split(',v1=')[1]},t=${T}`],
    ['spaces', header.replace(',', ', ')],
    ['a second signature', `${header},v1=${'0'.repeat(64)}`],
    ['a short digest', header.slice(0, -2)],
    ['a fractional t', header.replace(`t=${T}`, `t=${T}.5`)],
    ['v0 scheme', header.replace('v1=', 'v0=')],
  ])('rejects a header that is %s', (_label, bad) => {
    expect(verifyCallbackSignature(raw, SECRET, bad, T)).toBe(false);
  });
});

describe('Callback schedule', () => {
  const OUTCOME = new Date('2026-11-22T10:00:00.000Z');

  it('puts six attempts at 0, 1 min, 5 min, 15 min, 1 h 15 min and 4 h 15 min after the outcome', () => {
    const offsets = [1, 2, 3, 4, 5, 6].map((n) => nominalOffsetSeconds(n, CALLBACK_SCHEDULE_SECONDS));

    expect(offsets).toEqual([0, 60, 5 * 60, 15 * 60, 75 * 60, 255 * 60]);
    expect(CALLBACK_MAX_ATTEMPTS).toBe(6);
  });

  it('divides the offsets by the time scale, as the catalogue schedule does', () => {
    const due = attemptDueAt(OUTCOME, 6, 1000, () => 0.5, CALLBACK_SCHEDULE_SECONDS);

    expect(due.getTime() - OUTCOME.getTime()).toBe(15_300);
  });
});

describe('Function: callbackVerdictFor', () => {
  const next = new Date('2026-11-22T10:01:00.000Z');
  const nextDue = () => next;

  it('succeeds on a 2xx only', () => {
    expect(callbackVerdictFor({ outcome: 'success', statusCode: 204, durationMs: 3 }, 1, nextDue)).toEqual({ status: 'SUCCEEDED' });
  });

  it.each([
    ['a 3xx (never followed)', { outcome: 'redirect', statusCode: 302, error: 'redirect 302 not followed', durationMs: 3 }],
    ['a 4xx, unlike a webhook', { outcome: 'permanent', statusCode: 404, error: 'HTTP 404', durationMs: 3 }],
    ['a 5xx', { outcome: 'retryable', statusCode: 500, error: 'HTTP 500', durationMs: 3 }],
    ['a timeout', { outcome: 'retryable', error: 'timeout after 10000 ms', durationMs: 10_000 }],
  ] as const)('retries after %s until the sixth attempt', (_label, result) => {
    expect(callbackVerdictFor(result, 5, nextDue)).toEqual({ status: 'PENDING', nextAttemptAt: next.toISOString() });
    const last = callbackVerdictFor(result, 6, nextDue);
    expect(last.status).toBe('FAILED');
    expect(last.status === 'FAILED' && last.failureReason).toContain('6 attempts');
    expect(last.status === 'FAILED' && last.failureReason).toContain(result.error);
  });

  it('fails at once, with the guard reason, when the URL is refused at send time', () => {
    const verdict = callbackVerdictFor(
      { outcome: 'blocked', error: 'URL refused by the outbound guard: 10.0.0.7 is a private address', durationMs: 1 },
      1,
      nextDue,
    );

    expect(verdict).toEqual({ status: 'FAILED', failureReason: 'Not retried: URL refused by the outbound guard: 10.0.0.7 is a private address' });
  });
});
