import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CreditDeniedError } from '../../domain/ledger/credit-errors.ts';
import {
  authorizedEntry,
  availableCredit,
  creditTermsOf,
  decideCredit,
  exposureOf,
  type LedgerEntry,
  type LedgerEntryStatus,
} from '../../domain/ledger/ledger.ts';
import { canonicalJson, requestContentHash } from '../../domain/ledger/request-hash.ts';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const row = (status: LedgerEntryStatus, amount: number) => ({ status, amount });

describe('Function: exposureOf', () => {
  it('sums authorized and posted charges and adjustments less refunds and payments', () => {
    // prepare
    const entries = [row('AUTHORIZED', 1_000_00), row('POSTED', 2_000_00), row('POSTED', -300_00), row('POSTED', -500_00), row('POSTED', 150_00)];
    // act
    const exposure = exposureOf(entries);
    // assess
    expect(exposure).toBe(2_350_00);
  });

  it('counts released authorizations nowhere', () => {
    expect(exposureOf([row('RELEASED', 9_000_00), row('AUTHORIZED', 1_00)])).toBe(1_00);
  });

  it('is zero for no entries', () => {
    expect(exposureOf([])).toBe(0);
  });
});

describe('Function: availableCredit', () => {
  it('is the limit less exposure, negative when a late landing overran the limit', () => {
    expect(availableCredit(10_000_00, 2_500_00)).toBe(7_500_00);
    expect(availableCredit(10_000_00, 10_400_00)).toBe(-400_00);
  });
});

describe('Function: creditTermsOf', () => {
  it("holds the group when the operator or credit control holds it, and keeps the operator's limit", () => {
    expect(creditTermsOf(5_000_00, false, false)).toEqual({ creditLimit: 5_000_00, onHold: false });
    expect(creditTermsOf(5_000_00, true, false)).toEqual({ creditLimit: 5_000_00, onHold: true });
    expect(creditTermsOf(5_000_00, false, true)).toEqual({ creditLimit: 5_000_00, onHold: true });
    expect(creditTermsOf(0, true, true)).toEqual({ creditLimit: 0, onHold: true });
  });

  it('refuses every authorization of a group held by credit control alone, whatever its headroom', () => {
    expect(decideCredit(creditTermsOf(1_00_000_00, false, true), 0, 1)).toEqual({
      approved: false,
      reasonCode: 'ACCOUNT_ON_HOLD',
      availableCredit: 1_00_000_00,
    });
  });
});

describe('Function: decideCredit', () => {
  const terms = { creditLimit: 10_000_00, onHold: false };

  it('approves an amount that fits and reports the credit left after it', () => {
    expect(decideCredit(terms, 4_000_00, 6_000_00)).toEqual({ approved: true, availableCreditAfter: 0 });
  });

  it('refuses one paisa over the available credit with the shortfall and available credit', () => {
    expect(decideCredit(terms, 4_000_00, 6_000_01)).toEqual({ approved: false, reasonCode: 'CREDIT_LIMIT_EXCEEDED', shortfall: 1, availableCredit: 6_000_00 });
  });

  it('refuses a group on hold even with headroom', () => {
    expect(decideCredit({ ...terms, onHold: true }, 0, 1_00)).toEqual({ approved: false, reasonCode: 'ACCOUNT_ON_HOLD', availableCredit: 10_000_00 });
  });

  it('rejects a non-positive or fractional amount as a programming error', () => {
    expect(() => decideCredit(terms, 0, 0)).toThrow(RangeError);
    expect(() => decideCredit(terms, 0, 1.5)).toThrow(RangeError);
  });

  it('never approves above the limit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 10 }),
        fc.integer({ min: -(10 ** 10), max: 10 ** 10 }),
        fc.integer({ min: 1, max: 10 ** 10 }),
        fc.boolean(),
        (limit, exposure, amount, onHold) => {
          const decision = decideCredit({ creditLimit: limit, onHold }, exposure, amount);
          if (decision.approved) {
            expect(onHold).toBe(false);
            expect(exposure + amount).toBeLessThanOrEqual(limit);
            expect(decision.availableCreditAfter).toBe(limit - exposure - amount);
          } else if (decision.reasonCode === 'CREDIT_LIMIT_EXCEEDED') {
            expect(decision.shortfall).toBe(exposure + amount - limit);
            expect(decision.shortfall).toBeGreaterThan(0);
          }
        },
      ),
    );
  });
});

type Op = { kind: 'authorize'; amount: number } | { kind: 'post' | 'release'; pick: number };

describe('Model: authorize, post and release under the decision rule', () => {
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('authorize' as const), amount: fc.integer({ min: 1, max: 5_000_00 }) }),
    fc.record({ kind: fc.constantFrom('post' as const, 'release' as const), pick: fc.nat() }),
  );

  it('keeps exposure between zero and the limit for any sequence', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000_00 }), fc.array(op, { maxLength: 60 }), (limit, ops) => {
        let entries: LedgerEntry[] = [];
        for (const [i, o] of ops.entries()) {
          if (o.kind === 'authorize') {
            const decision = decideCredit({ creditLimit: limit, onHold: false }, exposureOf(entries), o.amount);
            if (decision.approved) {
              entries.push(
                authorizedEntry({ agentGroupId: 'g', type: 'CHARGE', amount: o.amount, externalBookingId: `x${i}`, description: 'stay' }, `e${i}`, new Date(0)),
              );
            }
          } else {
            const open = entries.filter((e) => e.status === 'AUTHORIZED');
            const target = open[o.pick % Math.max(open.length, 1)];
            if (target) {
              const status: LedgerEntryStatus = o.kind === 'post' ? 'POSTED' : 'RELEASED';
              entries = entries.map((e) => (e.id === target.id ? { ...e, status, bookingId: o.kind === 'post' ? `b${i}` : null } : e));
            }
          }
          const exposure = exposureOf(entries);
          expect(exposure).toBeGreaterThanOrEqual(0);
          expect(exposure).toBeLessThanOrEqual(limit);
        }
      }),
    );
  });
});

describe('Class: CreditDeniedError', () => {
  it('carries paise as fields and rupees in the body details', () => {
    // act
    const err = new CreditDeniedError({ approved: false, reasonCode: 'CREDIT_LIMIT_EXCEEDED', shortfall: 250_50, availableCredit: 749_50 });
    // assess
    expect(err.code).toBe('CREDIT_DENIED');
    expect([err.shortfall, err.availableCredit]).toEqual([250_50, 749_50]);
    expect(err.details).toEqual({ reasonCode: 'CREDIT_LIMIT_EXCEEDED', shortfall: 250.5, availableCredit: 749.5 });
  });

  it('has no shortfall on hold', () => {
    const err = new CreditDeniedError({ approved: false, reasonCode: 'ACCOUNT_ON_HOLD', availableCredit: 0 });
    expect(err.details).toEqual({ reasonCode: 'ACCOUNT_ON_HOLD', availableCredit: 0 });
  });
});

describe('Function: requestContentHash', () => {
  it('ignores key order and undefined members', () => {
    const a = { orderId: 'o1', acceptedTotal: 1200.5, primaryGuest: { firstName: 'A', email: 'a@x.in' }, specialRequests: undefined };
    const b = { primaryGuest: { email: 'a@x.in', firstName: 'A' }, acceptedTotal: 1200.5, orderId: 'o1' };
    expect(requestContentHash(a, sha256)).toBe(requestContentHash(b, sha256));
  });

  it('changes with any value and with array order', () => {
    const base = { orderId: 'o1', guests: [{ firstName: 'A' }, { firstName: 'B' }] };
    const h = requestContentHash(base, sha256);
    expect(requestContentHash({ ...base, orderId: 'o2' }, sha256)).not.toBe(h);
    expect(requestContentHash({ ...base, guests: [...base.guests].reverse() }, sha256)).not.toBe(h);
  });

  it('is the SHA-256 of the canonical JSON', () => {
    expect(canonicalJson({ b: [1, 'x', null], a: { d: true, c: 0 } })).toBe('{"a":{"c":0,"d":true},"b":[1,"x",null]}');
    expect(requestContentHash({}, sha256)).toBe(sha256('{}'));
  });

  it('is stable for any JSON value regardless of key order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (obj) => {
        const reversed = Object.fromEntries(Object.entries(obj).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(obj));
        expect(JSON.parse(canonicalJson(obj))).toEqual(JSON.parse(JSON.stringify(obj)));
      }),
    );
  });
});
