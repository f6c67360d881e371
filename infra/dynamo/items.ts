import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

/*
 * How a record becomes a table item and back, shared by the stores of the single table: an
 * item is the record's own fields beside its table key, its index keys and an entity tag.
 */

/** The items of one TransactWriteItems call, and one of them. */
export type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;
export type TransactItem = TransactItems[number];

/** DynamoDB's limit of items per transaction. */
export const MAX_TRANSACTION_ITEMS = 100;

/** A write that creates an item: an item already under its key (a replay, a racing writer, an id collision) refuses it instead of being overwritten. */
export const ITEM_IS_NEW = 'attribute_not_exists(PK)';
/** A write or check that needs its item to be there. */
export const ITEM_EXISTS = 'attribute_exists(PK)';

/** Attributes that place, tag or expire an item; none is a field of the record it holds. */
const LAYOUT_ATTRIBUTES = new Set(['PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'entity', 'expiresAt']);

/** A record as an item: its keys (table and indexes), its entity tag, then its own fields. */
export const itemOf = (entity: string, key: object, record: object): Record<string, unknown> => ({ ...key, entity, ...record });

/** The record an item holds: the item without its layout attributes. */
export const recordOf = <T>(item: Record<string, unknown>): T => Object.fromEntries(Object.entries(item).filter(([k]) => !LAYOUT_ATTRIBUTES.has(k))) as T;

/** A transaction's write of a new item, refused when its key is taken. */
export const putNew = (table: string, item: Record<string, unknown>): TransactItem => ({
  Put: { TableName: table, Item: item, ConditionExpression: ITEM_IS_NEW },
});
