import type { DynamoDBDocumentClient, TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { dayOfMonth, monthOf } from '../../domain/catalogue/calendar.ts';
import type { UnitMove } from '../../domain/ports/amendment-store.ts';
import { getAll } from './batch-get.ts';
import { locatorKeys, unitMoveItems as projectionUnitMoveItems } from './dynamo-search-projection.ts';
import { keys } from './keys.ts';

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/**
 * What a short night does to a take. `clamp`: the property system already holds the units
 * (a landed booking, a stay pushed back to it), so our copy goes to zero at worst.
 * `refuse`: the units are ours to find (an amendment taking new nights), so a night that
 * would go below zero refuses the whole move: never overselling.
 */
export type Overdraft = 'clamp' | 'refuse';

/** Moves summed per property and night, zeros dropped: an amendment that keeps a night moves nothing on it. */
export function netMoves(moves: readonly UnitMove[]): UnitMove[] {
  const net = new Map<string, UnitMove>();
  for (const m of moves) {
    const key = `${m.propertyId}|${m.date}`;
    const units = (net.get(key)?.units ?? 0) + m.units;
    net.set(key, { propertyId: m.propertyId, date: m.date, units });
  }
  return [...net.values()].filter((m) => m.units !== 0);
}

/** The transaction items of a unit move, or the nights it would oversell. */
export type UnitMoveItems = { readonly ok: true; readonly items: TransactItems } | { readonly ok: false; readonly oversold: readonly UnitMove[] };

/**
 * The one writer of the daily inventory's units for bookings (landing, cancellation,
 * amendments): per-property per-night moves become one update per property month. Each
 * night is set from the units read, on the condition that it still holds them, so a sync
 * or another booking racing us cancels the transaction and the caller retries on fresh
 * figures. A night without inventory is left alone (nothing of ours to move). The search
 * projection's units move in the same transaction (docs/search.md), so every caller keeps
 * search right without a writer of its own.
 */
export async function unitMoveItems(
  db: DynamoDBDocumentClient,
  table: string,
  moves: readonly UnitMove[],
  at: string,
  overdraft: Overdraft,
): Promise<UnitMoveItems> {
  const net = netMoves(moves);
  const months = [...new Map(net.map((m) => [`${m.propertyId}|${monthOf(m.date)}`, { propertyId: m.propertyId, month: monthOf(m.date) }])).values()];
  // Consistent, so the units read are the ones the conditions below will find; the search locators come in the same BatchGet.
  const stored = await getAll(db, table, [...months.map((m) => keys.propertyMonth(m.propertyId, m.month)), ...locatorKeys(months.map((m) => m.propertyId))], {
    consistent: true,
  });
  const byKey = new Map(stored.map((m) => [`${m.PK as string}\u0000${m.SK as string}`, m]));
  const items: TransactItems = [];
  const oversold: UnitMove[] = [];
  const moved: Parameters<typeof projectionUnitMoveItems>[2][number][] = [];
  for (const { propertyId, month } of months) {
    const key = keys.propertyMonth(propertyId, month);
    const days = (byKey.get(`${key.PK}\u0000${key.SK}`)?.days ?? {}) as Record<string, { quantity?: number }>;
    const sets: string[] = [];
    const conditions: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':at': at };
    for (const m of net.filter((n) => n.propertyId === propertyId && monthOf(n.date) === month)) {
      const dd = dayOfMonth(m.date);
      const seen = days[dd]?.quantity;
      if (seen === undefined) continue;
      if (seen + m.units < 0 && overdraft === 'refuse') oversold.push(m);
      names[`#d${dd}`] = dd;
      values[`:q${dd}`] = Math.max(0, seen + m.units);
      values[`:s${dd}`] = seen;
      sets.push(`days.#d${dd}.quantity = :q${dd}`, `days.#d${dd}.updatedAt = :at`);
      conditions.push(`days.#d${dd}.quantity = :s${dd}`);
    }
    if (sets.length === 0) continue;
    moved.push({ propertyId, month, quantityOn: (dd) => (values[`:q${dd}`] as number | undefined) ?? days[dd]?.quantity });
    items.push({
      Update: {
        TableName: table,
        Key: key,
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    });
  }
  return oversold.length ? { ok: false, oversold } : { ok: true, items: [...items, ...projectionUnitMoveItems(table, stored, moved)] };
}
