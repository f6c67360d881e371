import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../domain/errors.ts';
import { CreditDeniedError, IdempotencyConflictError, LedgerTransitionError } from '../../../domain/ledger/credit-errors.ts';
import { authorizedEntry, exposureOf, postedEntry, type CreditTerms, type LedgerEntry } from '../../../domain/ledger/ledger.ts';
import type { CreditLedger, IdempotencyClaim } from '../../../domain/ports/credit-ledger.ts';

export interface CreditLedgerSubject {
  readonly ledger: CreditLedger;
  /** A new agent group with these terms; its id. */
  newGroup(terms: CreditTerms): Promise<string>;
}

const T0 = Date.parse('2027-01-10T09:00:00.000Z');
const at = (second: number): Date => new Date(T0 + second * 1000);

function charge(agentGroupId: string, amount: number, second = 0): { entry: LedgerEntry; claim: IdempotencyClaim } {
  const externalBookingId = `ext-${randomUUID()}`;
  const entry = authorizedEntry({ agentGroupId, type: 'CHARGE', amount, externalBookingId, description: 'Booking' }, randomUUID(), at(second));
  return { entry, claim: { externalBookingId, contentHash: `hash-${externalBookingId}`, bookingRef: randomUUID() } };
}

/** Exposure moved by each call exactly once: the counter equals the sum of the entries that count. */
async function expectConsistent(ledger: CreditLedger, g: string, exposure: number): Promise<void> {
  const audit = await ledger.audit(g);
  expect(audit.exposureCounter).toBe(exposure);
  expect(exposureOf(audit.entries)).toBe(exposure);
}

/**
 * The CreditLedger port's contract, run against every adapter (the pattern of Powertools'
 * BasePersistenceLayer tests): the in-memory one in the unit tier, DynamoCreditLedger on
 * DynamoDB Local. What a rule test relies on from the port; the races the DynamoDB
 * transactions settle stay in the DynamoDB tests.
 */
export function creditLedgerContract(adapter: string, subject: () => Promise<CreditLedgerSubject>): void {
  describe(`CreditLedger contract: ${adapter}`, () => {
    it('authorizes within the limit, raising exposure and answering the credit left', async () => {
      const { ledger, newGroup } = await subject();
      const g = await newGroup({ creditLimit: 10_000_00, onHold: false });
      const { entry, claim } = charge(g, 4_000_00);

      const auth = await ledger.authorize(entry, claim);

      expect(auth).toEqual({ entry, bookingRef: claim.bookingRef, replay: false, availableCreditAfter: 6_000_00 });
      expect(await ledger.creditPosition(g)).toEqual({ creditLimit: 10_000_00, exposure: 4_000_00, availableCredit: 6_000_00 });
      expect(await ledger.getEntry(g, entry.id)).toEqual(entry);
      await expectConsistent(ledger, g, 4_000_00);
    });

    it('refuses past the limit and on hold with the figures, writing nothing', async () => {
      const { ledger, newGroup } = await subject();
      const g = await newGroup({ creditLimit: 5_000_00, onHold: false });
      const held = await newGroup({ creditLimit: 5_000_00, onHold: true });
      const first = charge(g, 3_000_00);
      await ledger.authorize(first.entry, first.claim);
      const over = charge(g, 2_500_00);
      const onHold = charge(held, 1_00);

      const refused = await ledger.authorize(over.entry, over.claim).catch((err: unknown) => err);
      const refusedHeld = await ledger.authorize(onHold.entry, onHold.claim).catch((err: unknown) => err);

      expect(refused).toBeInstanceOf(CreditDeniedError);
      expect(refusedHeld).toBeInstanceOf(CreditDeniedError);
      expect(await ledger.decide(g, 2_500_00)).toEqual({ approved: false, reasonCode: 'CREDIT_LIMIT_EXCEEDED', shortfall: 50_000, availableCredit: 2_000_00 });
      expect(await ledger.decide(held, 1_00)).toEqual({ approved: false, reasonCode: 'ACCOUNT_ON_HOLD', availableCredit: 5_000_00 });
      expect(await ledger.getEntry(g, over.entry.id)).toBeUndefined();
      expect(await ledger.getEntry(held, onHold.entry.id)).toBeUndefined();
      await expectConsistent(ledger, g, 3_000_00);
      await expectConsistent(ledger, held, 0);
    });

    it('answers a replay from its claim, even once the group is full, and refuses the key with other contents', async () => {
      const { ledger, newGroup } = await subject();
      const g = await newGroup({ creditLimit: 5_000_00, onHold: false });
      const { entry, claim } = charge(g, 5_000_00);
      await ledger.authorize(entry, claim);

      const again = await ledger.authorize({ ...entry, id: randomUUID() }, claim);
      const other = await ledger.authorize({ ...entry, id: randomUUID() }, { ...claim, contentHash: 'another' }).catch((err: unknown) => err);

      expect(again).toEqual({ entry, bookingRef: claim.bookingRef, replay: true, availableCreditAfter: 0 });
      expect(other).toBeInstanceOf(IdempotencyConflictError);
      await expectConsistent(ledger, g, 5_000_00);
    });

    it('posts once to one booking; releases once; a released authorization posted late counts again', async () => {
      const { ledger, newGroup } = await subject();
      const g = await newGroup({ creditLimit: 10_000_00, onHold: false });
      const kept = charge(g, 1_000_00);
      const dropped = charge(g, 2_000_00, 1);
      const late = charge(g, 3_000_00, 2);
      for (const c of [kept, dropped, late]) await ledger.authorize(c.entry, c.claim);

      const posted = await ledger.post(g, kept.entry.id, 'PMS-1', at(5).toISOString());
      const postedAgain = await ledger.post(g, kept.entry.id, 'PMS-1', at(6).toISOString());
      const elsewhere = await ledger.post(g, kept.entry.id, 'PMS-2', at(6).toISOString()).catch((err: unknown) => err);
      const released = await ledger.release(g, dropped.entry.id, at(7).toISOString());
      const releasedAgain = await ledger.release(g, dropped.entry.id, at(8).toISOString());
      const releasePosted = await ledger.release(g, kept.entry.id, at(8).toISOString()).catch((err: unknown) => err);
      await ledger.release(g, late.entry.id, at(9).toISOString());
      const landed = await ledger.post(g, late.entry.id, 'PMS-3', at(10).toISOString());

      expect(posted).toMatchObject({ id: kept.entry.id, status: 'POSTED', bookingId: 'PMS-1' });
      expect(postedAgain).toEqual(posted);
      expect(elsewhere).toBeInstanceOf(LedgerTransitionError);
      expect([released.status, releasedAgain.status]).toEqual(['RELEASED', 'RELEASED']);
      expect(releasePosted).toBeInstanceOf(LedgerTransitionError);
      expect(landed).toMatchObject({ status: 'POSTED', bookingId: 'PMS-3' });
      await expect(ledger.post(g, randomUUID(), 'PMS-4', at(11).toISOString())).rejects.toBeInstanceOf(NotFoundError);
      await expectConsistent(ledger, g, 1_000_00 + 3_000_00);
    });

    it('records a posted payment once per id, past nothing (no limit check), and refuses an unknown group', async () => {
      const { ledger, newGroup } = await subject();
      const g = await newGroup({ creditLimit: 1_000_00, onHold: true });
      const payment = postedEntry(
        { agentGroupId: g, type: 'PAYMENT', amount: -2_500_00, bookingId: null, externalBookingId: null, description: 'UTR 1' },
        randomUUID(),
        at(0),
      );
      const stranger = postedEntry(
        { agentGroupId: `no-group-${randomUUID()}`, type: 'PAYMENT', amount: -1_00, bookingId: null, externalBookingId: null, description: 'UTR 2' },
        randomUUID(),
        at(0),
      );

      expect(await ledger.recordPosted(payment)).toEqual(payment);
      expect(await ledger.recordPosted(payment)).toEqual(payment);

      await expect(ledger.recordPosted(stranger)).rejects.toBeInstanceOf(NotFoundError);
      expect(await ledger.creditPosition(stranger.agentGroupId)).toBeUndefined();
      await expect(ledger.decide(stranger.agentGroupId, 1_00)).rejects.toBeInstanceOf(NotFoundError);
      expect(await ledger.creditPosition(g)).toEqual({ creditLimit: 1_000_00, exposure: -2_500_00, availableCredit: 3_500_00 });
      await expectConsistent(ledger, g, -2_500_00);
    });

    it('answers a second record of the same id with what was stored first, changing nothing', async () => {
      const { ledger, newGroup } = await subject();
      const g = await newGroup({ creditLimit: 10_000_00, onHold: false });
      const first = postedEntry(
        { agentGroupId: g, type: 'REFUND', amount: -100_00, bookingId: 'PS-1', externalBookingId: 'ext-1', description: 'Cancellation refund' },
        randomUUID(),
        at(0),
      );
      await ledger.recordPosted(first);

      const again = await ledger.recordPosted({ ...first, description: 'a retry that changed its text' });

      expect(again).toEqual(first);
      await expectConsistent(ledger, g, -100_00);
    });

    it('lets an operator adjustment raise exposure past the limit, with no limit check', async () => {
      const { ledger, newGroup } = await subject();
      const g = await newGroup({ creditLimit: 1_000_00, onHold: false });
      const adjustment = postedEntry(
        { agentGroupId: g, type: 'ADJUSTMENT', amount: 1_200_00, bookingId: null, externalBookingId: null, description: 'Operator correction' },
        randomUUID(),
        at(0),
      );

      await ledger.recordPosted(adjustment);

      expect(await ledger.creditPosition(g)).toEqual({ creditLimit: 1_000_00, exposure: 1_200_00, availableCredit: -200_00 });
      await expectConsistent(ledger, g, 1_200_00);
    });

    it('refuses to record for an unknown group, and entries the gate must see or that move money the wrong way, writing nothing', async () => {
      const { ledger, newGroup } = await subject();
      const g = await newGroup({ creditLimit: 10_000_00, onHold: false });
      const stranger = `no-group-${randomUUID()}`;
      const entry = postedEntry(
        { agentGroupId: g, type: 'REFUND', amount: -1_00, bookingId: 'PS-1', externalBookingId: 'ext-1', description: 'Cancellation refund' },
        randomUUID(),
        at(0),
      );

      await expect(ledger.recordPosted({ ...entry, agentGroupId: stranger })).rejects.toBeInstanceOf(NotFoundError);
      await expect(ledger.recordPosted({ ...entry, type: 'CHARGE', amount: 1_00 })).rejects.toThrow(RangeError);
      await expect(ledger.recordPosted({ ...entry, amount: 1_00 })).rejects.toThrow(RangeError);
      await expect(ledger.recordPosted({ ...entry, status: 'AUTHORIZED' })).rejects.toThrow(RangeError);

      expect(await ledger.audit(stranger)).toEqual({ exposureCounter: 0, entries: [] });
      expect((await ledger.audit(g)).entries).toEqual([]);
    });

    it('pages the entries newest first and filters a query by type, status and time, oldest first', async () => {
      const { ledger, newGroup } = await subject();
      const g = await newGroup({ creditLimit: 10_000_00, onHold: false });
      const charges = [0, 1, 2].map((s) => charge(g, 1_000_00, s));
      for (const c of charges) await ledger.authorize(c.entry, c.claim);
      const payment = postedEntry(
        { agentGroupId: g, type: 'PAYMENT', amount: -500_00, bookingId: null, externalBookingId: null, description: 'UTR' },
        randomUUID(),
        at(3),
      );
      await ledger.recordPosted(payment);
      await ledger.post(g, charges[1]!.entry.id, 'PMS-1', at(4).toISOString());

      const first = await ledger.listEntries(g, { limit: 3 });
      const second = await ledger.listEntries(g, { limit: 3, after: first.next! });
      const chargesOnly = await ledger.queryEntries(g, {
        order: 'oldest-first',
        types: ['CHARGE'],
        statuses: ['AUTHORIZED'],
        from: at(0).toISOString(),
        to: at(2).toISOString(),
      });
      const byBooking = await ledger.queryEntries(g, { order: 'newest-first', bookingIds: ['PMS-1'] });

      expect(first.entries.map((e) => e.id)).toEqual([payment.id, charges[2]!.entry.id, charges[1]!.entry.id]);
      expect(first.next).toEqual({ occurredAt: charges[1]!.entry.occurredAt, id: charges[1]!.entry.id });
      expect(second.entries.map((e) => e.id)).toEqual([charges[0]!.entry.id]);
      expect(second.next).toBeNull();
      expect(chargesOnly).toEqual({ entries: [charges[0]!.entry, charges[2]!.entry], next: null });
      expect(byBooking.entries.map((e) => e.id)).toEqual([charges[1]!.entry.id]);
    });
  });
}
