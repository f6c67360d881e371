import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BillingRunResult, InvoiceLine } from '../../domain/invoicing/invoice.ts';
import { billingLockEntity, billingStateEntity } from '../../infra/dynamo/entities/billing-lock.ts';
import { billingMarkerEntity } from '../../infra/dynamo/entities/billing-marker.ts';
import { billingRunEntity } from '../../infra/dynamo/entities/billing-run.ts';
import { invoiceEntity } from '../../infra/dynamo/entities/invoice.ts';
import { invoiceLineEntity } from '../../infra/dynamo/entities/invoice-line.ts';
import { invoiceSeriesEntity } from '../../infra/dynamo/entities/invoice-series.ts';
import { draft } from '../support/contracts/invoice-store-contract.ts';

const invoice = draft('g1');

describe('Module: dynamo entities of invoicing', () => {
  it('stores a DRAFT under its group with the open index and reads it back as it was (bookings added by its lines)', () => {
    const item = invoiceEntity.toItem({ ...invoice, bookingRefs: ['b1'] });
    expect(item).toMatchObject({ PK: 'GROUP#g1', SK: `INVOICE#${invoice.id}`, GSI2PK: 'INVOICES#OPEN', entity: 'Invoice' });
    expect(item).not.toHaveProperty('bookingRefs');
    expect(invoiceEntity.fromItem(item)).toEqual(invoice);
    expect(invoiceEntity.fromItem({ ...item, bookingRefs: new Set(['b2', 'b1']), lastError: undefined }).bookingRefs).toEqual(['b1', 'b2']);
  });

  it('keys a line by what it bills, lists it under its invoice, and reads it back', () => {
    const line = { id: 'l1', invoiceId: 'inv-1', agentGroupId: 'g1', bookingRef: 'b1', key: 'STAY#2027-01-10', lineTotal: 5_250_00 } as InvoiceLine;
    const item = invoiceLineEntity.toItem(line);
    expect(item).toMatchObject({ PK: 'GROUP#g1', SK: 'INVLINE#b1#STAY#2027-01-10', GSI1PK: 'INVOICE#inv-1#LINES', entity: 'InvoiceLine' });
    expect(invoiceLineEntity.key(line)).toEqual({ PK: 'GROUP#g1', SK: 'INVLINE#b1#STAY#2027-01-10' });
    expect(invoiceLineEntity.fromItem(item)).toEqual(line);
  });

  it("moves a booking's marker up by its lines written and down by the same lines given back", () => {
    const lines = [{ lineTotal: 100 }, { lineTotal: 250 }] as InvoiceLine[];
    const up = billingMarkerEntity.billed('t', 'g1', 'b1', lines, '2027-02-01T03:00:00.000Z').Update!;
    const down = billingMarkerEntity.released('t', 'g1', 'b1', lines).Update!;
    expect(up.Key).toEqual({ PK: 'GROUP#g1', SK: 'BILLED#b1' });
    expect([up.ExpressionAttributeValues![':t'], up.ExpressionAttributeValues![':n']]).toEqual([350, 2]);
    expect([down.ExpressionAttributeValues![':t'], down.ExpressionAttributeValues![':n']]).toEqual([-350, -2]);
    expect(billingMarkerEntity.fromItem({ bookingRef: 'b1', billedTotal: 350 })).toEqual(['b1', 350]);
  });

  it('reads a lock released meanwhile as held until now, the scheduled period and the series as stored (none: 0)', () => {
    const item = billingLockEntity.toItem('g1', { owner: 'run-a', leaseUntil: '2027-02-01T03:05:00.000Z' }, '2027-02-01T03:00:00.000Z');
    expect(item).toMatchObject({ PK: 'GROUP#g1', SK: 'BILLING_LOCK', entity: 'BillingLock', takenAt: '2027-02-01T03:00:00.000Z' });
    expect(billingLockEntity.fromItem(item, 'now')).toEqual({ owner: 'run-a', leaseUntil: '2027-02-01T03:05:00.000Z' });
    expect(billingLockEntity.fromItem(undefined, 'now')).toEqual({ owner: '', leaseUntil: 'now' });
    expect(billingStateEntity.fromItem(billingStateEntity.toItem('g1', '2027-01-31'))).toBe('2027-01-31');
    expect(billingStateEntity.fromItem(undefined)).toBeUndefined();
    expect(invoiceSeriesEntity.fromItem(undefined)).toBe(0);
    expect(invoiceSeriesEntity.fromItem({ last: 41 })).toBe(41);
  });

  it("keeps a group's run under the group and on the list of every group's runs, with its expiry", () => {
    const run = { runId: 'r1', agentGroupId: 'g1', startedAt: '2027-02-01T03:00:00.000Z' } as BillingRunResult;
    const item = billingRunEntity.toItem(run, 123);
    expect(item).toMatchObject({ PK: 'GROUP#g1', SK: 'BILLINGRUN#2027-02-01T03:00:00.000Z#r1', GSI1PK: 'BILLINGRUNS', expiresAt: 123 });
    expect(billingRunEntity.fromItem(item)).toEqual(run);
  });
});

describe('Module: every store condition is an entity’s (docs/decisions/platform.md "Every condition is an entity\'s")', () => {
  /** A store's `ConditionExpression:` written as a literal: a quoted string, or a template that names no condition. */
  const literalConditions = (dir: string): string[] =>
    readdirSync(new URL(`../../infra/${dir}/`, import.meta.url))
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        [...readFileSync(new URL(`../../infra/${dir}/${f}`, import.meta.url), 'utf8').matchAll(/[^y]ConditionExpression:\s*(['"][^'"]*['"]|`[^`$]*`)/g)].map(
          (m) => `${dir}/${f}: ${m[1]}`,
        ),
      );

  it('leaves no condition written out in a store (only the resealing of a field on whatever item holds it)', () => {
    expect([...literalConditions('dynamo'), ...literalConditions('property-system')]).toEqual(["dynamo/dynamo-sealed-secrets.ts: '#a = :was'"]);
  });
});
