import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PayLink } from '../../domain/invoicing/invoice.ts';
import type { PayLinkStore } from '../../domain/ports/pay-link-store.ts';
import type { VirtualAccount } from '../../domain/ports/payment-gateway.ts';
import { transactIf } from './client.ts';
import { invoiceEntity } from './entities/invoice.ts';
import { itemOf, type TransactItem } from './items.ts';
import { keys } from './keys.ts';
import { queryAll } from './query.ts';

/*
 * Access patterns of gateway orders and pay links (docs/data-model.md):
 * | pattern                               | key condition                                          | index |
 * |---------------------------------------|--------------------------------------------------------|-------|
 * | invoice of a gateway order            | PK = GATEWAYORDER#<orderId>, SK = ORDER                | table |
 * | invoice of a pay link                 | PK = PAYLINK#<linkId>, SK = LINK                       | table |
 * | a group's invoices holding a link     | PK = GROUP#<g>, begins_with(SK, PAYLINKOF#)            | table |
 */

const is = invoiceEntity.conditions;

/** The gateway order and pay link of each invoice (kept on the invoice item) and their ways back to it. */
export class DynamoPayLinkStore implements PayLinkStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async setGatewayOrder(agentGroupId: string, invoiceId: string, gatewayOrderId: string, at: string, payTo?: VirtualAccount): Promise<void> {
    // The order's way back to its invoice is written with it: a gateway notification names only the order.
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: this.table,
              Key: invoiceEntity.key(agentGroupId, invoiceId),
              UpdateExpression: 'SET gatewayOrderId = :o, payTo = :payTo, updatedAt = :at',
              ConditionExpression: invoiceEntity.conditions.invoiceIsDraft,
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':o': gatewayOrderId, ':payTo': payTo ?? null, ':at': at, ':draft': 'DRAFT' },
            },
          },
          {
            Put: {
              TableName: this.table,
              Item: itemOf('GatewayOrder', keys.gatewayOrder(gatewayOrderId), { orderId: gatewayOrderId, agentGroupId, invoiceId, createdAt: at }),
            },
          },
        ],
      }),
    );
  }

  async setPayLink(agentGroupId: string, invoiceId: string, link: PayLink | null, replaces: string | null, at: string): Promise<boolean> {
    const listed: TransactItem = link
      ? { Put: { TableName: this.table, Item: itemOf('PayLinkOf', keys.payLinkOf(agentGroupId, invoiceId), { invoiceId, linkId: link.linkId }) } }
      : { Delete: { TableName: this.table, Key: keys.payLinkOf(agentGroupId, invoiceId) } };
    return transactIf(this.db, [
      {
        Update: {
          TableName: this.table,
          Key: invoiceEntity.key(agentGroupId, invoiceId),
          UpdateExpression: 'SET payLink = :l, updatedAt = :at',
          // The refresh that lost the race has its link cancelled by its caller.
          ConditionExpression: `${is.exists} AND ${is.notCancelled} AND ${replaces ? is.payLinkIs : is.noPayLink}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':l': link, ':at': at, ':cancelled': 'CANCELLED', ...(replaces ? { ':r': replaces } : { ':null': null }) },
        },
      },
      listed,
      ...(link
        ? [
            {
              Put: {
                TableName: this.table,
                Item: itemOf('PayLink', keys.payLink(link.linkId), { linkId: link.linkId, agentGroupId, invoiceId, createdAt: at }),
              },
            },
          ]
        : []),
    ]);
  }

  async invoicesWithPayLinks(agentGroupId: string): Promise<string[]> {
    const k = keys.payLinksOf(agentGroupId);
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': k.PK, ':prefix': k.SKPrefix },
      ConsistentRead: true,
    });
    return items.map((i) => i.invoiceId as string);
  }

  async payLinkInvoice(linkId: string): Promise<{ agentGroupId: string; invoiceId: string } | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.payLink(linkId), ConsistentRead: true }));
    return out.Item ? { agentGroupId: out.Item.agentGroupId as string, invoiceId: out.Item.invoiceId as string } : undefined;
  }
}
