import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The single table. serverless.yml declares the same shape for CloudFormation; a unit
 * test keeps the two identical, and the local stack creates the table from this.
 *
 * Access patterns (docs/data-model.md has the full list with round trips):
 * | pattern                           | key condition                                  | index |
 * |-----------------------------------|------------------------------------------------|-------|
 * | key by hash (auth)                | PK = APIKEY#<sha256>, SK = APIKEY              | table |
 * | partner / agent group by id       | PK = PARTNER#<id> / GROUP#<id>, SK = PROFILE   | table |
 * | all partners / all groups         | GSI1PK = PARTNERS / GROUPS                     | GSI1  |
 * | keys of an owner                  | GSI1PK = KEYS#<kind>#<id>                      | GSI1  |
 * | key by key id (revoke, replace)   | GSI2PK = KEYID#<keyId>                         | GSI2  |
 * | rate bucket of a credential       | PK = BUCKET#<keyId>, SK = BUCKET               | table |
 * | listing with properties, meals,   | PK = LISTING#<id>                              | table |
 * |   services, simulator (one query) |   (SK LISTING, PROPERTY#, MEAL#, VAS#, SIMULATOR) |     |
 * | listing of a property             | GSI2PK = PROPERTY#<propertyId>                 | GSI2  |
 * | a property's days, month range    | PK = PROPERTY#<id>, SK BETWEEN MONTH#<yyyy-mm>…| table |
 * | channel                           | PK = CHANNEL#<id>, SK = CHANNEL                | table |
 * | is a listing on a channel         | PK = CHANNEL#<id>, SK = LISTING#<listingId>    | table |
 * | channel feed by updatedSince      | GSI1PK = CHANNEL#<id>#FEED, GSI1SK ≥ <at>      | GSI1  |
 * | a listing's Channex notifications | GSI1PK = CHANNEX#LISTING#<id>, newest first    | GSI1  |
 * | bank offers of a channel          | PK = CHANNEL#<id>, begins_with(SK, OFFER#)     | table |
 * | cancellation plan                 | PK = PLAN#<planId>, SK = PLAN                  | table |
 * | supplier GST registration         | PK = GSTREG#<state>, SK = GSTREG               | table |
 * | GST slab tables (all dates)       | PK = GST#SLABS (SK = effectiveFrom)            | table |
 * | signing secret a world import set | PK = GROUP#<id>, SK = CALLBACK_SECRET_IMPORT   | table |
 * | every sandbox test clock          | GSI2PK = TEST_CLOCKS                           | GSI2  |
 * | listings connected to Channex    | GSI2PK = CHANNEX_CONNECTIONS (SK listing id)   | GSI2  |
 */
export const GSI1 = 'GSI1';
export const GSI2 = 'GSI2';

export function tableDefinition(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: 'PK', AttributeType: 'S' },
      { AttributeName: 'SK', AttributeType: 'S' },
      { AttributeName: 'GSI1PK', AttributeType: 'S' },
      { AttributeName: 'GSI1SK', AttributeType: 'S' },
      { AttributeName: 'GSI2PK', AttributeType: 'S' },
      { AttributeName: 'GSI2SK', AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: GSI1,
        KeySchema: [
          { AttributeName: 'GSI1PK', KeyType: 'HASH' },
          { AttributeName: 'GSI1SK', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
      {
        IndexName: GSI2,
        KeySchema: [
          { AttributeName: 'GSI2PK', KeyType: 'HASH' },
          { AttributeName: 'GSI2SK', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ],
  };
}

/** Items with this attribute (epoch seconds) are removed by DynamoDB TTL. */
export const TTL_ATTRIBUTE = 'expiresAt';
