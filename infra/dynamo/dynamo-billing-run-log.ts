import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AuditDraft } from '../../domain/audit/audit-event.ts';
import type { BillingRunResult } from '../../domain/invoicing/invoice.ts';
import type { BillingRunLog, FanOutProgress, FanOutRun, GroupOutcomeRecord } from '../../domain/ports/billing-fan-out.ts';
import { writeIf } from './client.ts';
import type { DynamoAuditTrail } from './dynamo-audit-trail.ts';
import { billingFanOutGroupEntity, billingRunEntity } from './entities/billing-run.ts';
import { keys } from './keys.ts';
import { queryAll } from './query.ts';
import { GSI1 } from './table.ts';

/*
 * Access patterns of the run log, a group's runs and the runs over every group:
 * | pattern                  | key condition                                              | index |
 * |--------------------------|------------------------------------------------------------|-------|
 * | runs of a group          | PK = GROUP#<g>, begins_with(SK, BILLINGRUN#), newest first  | table |
 * | runs of every group      | GSI1PK = BILLINGRUNS, newest first                          | GSI1  |
 * | a run                    | PK = BILLINGFANOUT#<runId>, SK = RUN                        | table |
 * | its groups' outcomes     | PK = BILLINGFANOUT#<runId>, begins_with(SK, GROUP#)         | table |
 * | latest runs over every group | GSI1PK = BILLINGFANOUTS, newest first                   | GSI1  |
 */

/** Runs (a group's, and the runs over every group) are kept for operators for this long. */
const RETENTION_SECONDS = 180 * 86_400;

export class DynamoBillingRunLog implements BillingRunLog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly audit: DynamoAuditTrail,
  ) {}

  async saveRun(result: BillingRunResult, audit: AuditDraft): Promise<void> {
    await this.audit.transact([{ Put: { TableName: this.table, Item: billingRunEntity.toItem(result, expiresAt(result.startedAt)) } }], audit);
  }

  async groupRuns(limit: number, agentGroupId?: string): Promise<BillingRunResult[]> {
    const input: QueryCommandInput = agentGroupId
      ? {
          TableName: this.table,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.billingRunsOfGroup(agentGroupId).PK, ':prefix': keys.billingRunsOfGroup(agentGroupId).SKPrefix },
        }
      : { TableName: this.table, IndexName: GSI1, KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': keys.billingRuns().GSI1PK } };
    const out = await this.db.send(new QueryCommand({ ...input, ScanIndexForward: false, Limit: limit }));
    return (out.Items ?? []).map(billingRunEntity.fromItem);
  }

  async startRun(run: FanOutRun): Promise<void> {
    const index = keys.billingFanOutIndex(run.startedAt, run.runId);
    // The day's run queued again (a retried schedule) keeps when it first started, so it stays one entry in the list.
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: keys.billingFanOut(run.runId),
        UpdateExpression:
          'SET entity = :entity, runId = :runId, #trigger = :trigger, #day = :day, enqueued = :enqueued, startedAt = if_not_exists(startedAt, :startedAt), GSI1PK = :gpk, GSI1SK = if_not_exists(GSI1SK, :gsk), expiresAt = :expiresAt',
        ExpressionAttributeNames: { '#trigger': 'trigger', '#day': 'day' },
        ExpressionAttributeValues: {
          ':entity': 'BillingFanOut',
          ':runId': run.runId,
          ':trigger': run.trigger,
          ':day': run.day,
          ':enqueued': run.enqueued,
          ':startedAt': run.startedAt,
          ':gpk': index.GSI1PK,
          ':gsk': index.GSI1SK,
          ':expiresAt': expiresAt(run.startedAt),
        },
      }),
    );
  }

  async recordGroup(runId: string, o: GroupOutcomeRecord): Promise<void> {
    await writeIf(
      this.db,
      new UpdateCommand({
        TableName: this.table,
        Key: keys.billingFanOutGroup(runId, o.agentGroupId),
        UpdateExpression:
          'SET entity = :entity, agentGroupId = :g, outcome = :outcome, detail = :detail, invoicesIssued = :issued, #at = :at, expiresAt = :expiresAt ADD attempts :one',
        ConditionExpression: billingFanOutGroupEntity.conditions.noSuccessYet,
        ExpressionAttributeNames: { '#at': 'at' },
        ExpressionAttributeValues: {
          ':entity': 'BillingFanOutGroup',
          ':g': o.agentGroupId,
          ':outcome': o.outcome,
          ':detail': o.detail,
          ':issued': o.invoicesIssued,
          ':at': o.at,
          ':expiresAt': expiresAt(o.at),
          ':one': 1,
          ':failed': 'FAILED',
        },
      }),
    );
  }

  async progress(runId: string): Promise<FanOutProgress | undefined> {
    const head = (await this.db.send(new GetCommand({ TableName: this.table, Key: keys.billingFanOut(runId), ConsistentRead: true }))).Item;
    if (!head) return undefined;
    const { PK, SKPrefix } = keys.billingFanOutGroups(runId);
    const groups = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
      ProjectionExpression: 'agentGroupId, outcome, detail, attempts, invoicesIssued, #at',
      ExpressionAttributeNames: { '#at': 'at' },
      ConsistentRead: true,
    });
    const count = (outcome: string) => groups.filter((g) => g.outcome === outcome).length;
    const run = runOf(head);
    return {
      ...run,
      billed: count('BILLED'),
      upToDate: count('UP_TO_DATE'),
      failed: count('FAILED'),
      pending: Math.max(0, run.enqueued - groups.length),
      // Outcomes recorded before the count was kept read as none.
      invoicesIssued: groups.reduce((n, g) => n + Number(g.invoicesIssued ?? 0), 0),
      failures: groups
        .filter((g) => g.outcome === 'FAILED')
        .map((g) => ({
          agentGroupId: g.agentGroupId as string,
          error: (g.detail as string | null) ?? '',
          attempts: Number(g.attempts ?? 1),
          at: g.at as string,
        })),
    };
  }

  async recentRuns(limit: number): Promise<FanOutRun[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: GSI1,
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.billingFanOuts().GSI1PK },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (out.Items ?? []).map(runOf);
  }
}

const expiresAt = (at: string) => Math.floor(Date.parse(at) / 1000) + RETENTION_SECONDS;

const runOf = (i: Record<string, unknown>): FanOutRun => ({
  runId: i.runId as string,
  trigger: i.trigger as FanOutRun['trigger'],
  day: i.day as string,
  startedAt: i.startedAt as string,
  enqueued: Number(i.enqueued),
});
