import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { METRIC_NAMES } from '../../domain/ports/metrics.ts';
import { tableDefinition, TTL_ATTRIBUTE } from '../../infra/dynamo/table.ts';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '../../infra/metrics.ts';

/** serverless.yml with its CloudFormation short tags (!GetAtt, !Ref, …) read as plain values. */
function serverlessYaml(): any {
  const tags = ['!GetAtt', '!Ref', '!Sub', '!Join'].map((tag) => ({ tag, resolve: (v: unknown) => ({ [tag]: v }) }));
  const seqTags = ['!Join', '!Sub'].map((tag) => ({ tag, collection: 'seq' as const, resolve: (v: unknown) => ({ [tag]: v }) }));
  return parseDocument(readFileSync(new URL('../../serverless.yml', import.meta.url), 'utf8'), { customTags: [...tags, ...seqTags] }).toJS({ maxAliasCount: -1 });
}

const sortBy = <T>(xs: readonly T[] | undefined, key: (x: T) => string) => [...(xs ?? [])].sort((a, b) => key(a).localeCompare(key(b)));

describe('serverless.yml resources', () => {
  it('declares the table exactly as infra/dynamo/table.ts defines it (the local stack creates it from there)', () => {
    const table = serverlessYaml().resources.Resources.Table.Properties;
    const local = tableDefinition('x');
    expect(table.BillingMode).toBe(local.BillingMode);
    expect(sortBy(table.AttributeDefinitions, (a: { AttributeName: string }) => a.AttributeName)).toEqual(sortBy(local.AttributeDefinitions, (a) => a.AttributeName!));
    expect(table.KeySchema).toEqual(local.KeySchema);
    expect(sortBy(table.GlobalSecondaryIndexes, (i: { IndexName: string }) => i.IndexName)).toEqual(sortBy(local.GlobalSecondaryIndexes, (i) => i.IndexName!));
    expect(table.TimeToLiveSpecification).toEqual({ AttributeName: TTL_ATTRIBUTE, Enabled: true });
  });

  it('gives every queue a dead-letter queue and the buckets no public access', () => {
    const resources = serverlessYaml().resources.Resources as Record<string, { Type: string; Properties: any }>;
    const queues = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::SQS::Queue');
    const main = queues.filter(([name]) => !name.includes('DeadLetter'));
    expect(main.length).toBeGreaterThanOrEqual(2);
    for (const [, q] of main) expect(q.Properties.RedrivePolicy?.deadLetterTargetArn).toBeDefined();
    const buckets = Object.values(resources).filter((r) => r.Type === 'AWS::S3::Bucket');
    expect(buckets.length).toBeGreaterThanOrEqual(1);
    for (const b of buckets) expect(b.Properties.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
  });

  it('grants every function only the statements it lists (no provider-wide IAM)', () => {
    const doc = serverlessYaml();
    expect(doc.provider.iam?.role?.statements ?? []).toEqual([]);
    for (const [name, fn] of Object.entries(doc.functions as Record<string, { iamRoleStatements?: unknown[] }>)) {
      expect(Array.isArray(fn.iamRoleStatements), `${name} declares iamRoleStatements`).toBe(true);
    }
  });

  it('alarms on every dead-letter queue and on overdue work, only where the stage names an alarm topic', () => {
    const doc = serverlessYaml();
    const resources = doc.resources.Resources as Record<string, { Type: string; Condition?: string; Properties: any }>;
    const alarms = Object.values(resources).filter((r) => r.Type === 'AWS::CloudWatch::Alarm');
    const deadLetterQueues = Object.entries(resources).filter(([name, r]) => r.Type === 'AWS::SQS::Queue' && name.includes('DeadLetter'));

    expect(doc.resources.Conditions.AlarmsEnabled).toEqual({ 'Fn::Not': [{ 'Fn::Equals': ['${param:alarmTopicArn, ""}', ''] }] });
    for (const alarm of alarms) {
      expect(alarm.Condition).toBe('AlarmsEnabled');
      expect(alarm.Properties.AlarmActions).toEqual(['${param:alarmTopicArn, ""}']);
    }
    expect(deadLetterQueues.length).toBeGreaterThanOrEqual(3);
    for (const [name] of deadLetterQueues) {
      const watching = alarms.filter((a) => a.Properties.Namespace === 'AWS/SQS' && a.Properties.Dimensions?.[0]?.Value?.['!GetAtt'] === `${name}.QueueName`);
      expect(watching, `an alarm on ${name}`).toHaveLength(1);
    }
    const own = alarms.filter((a) => a.Properties.Namespace === METRICS_NAMESPACE);
    expect(own.map((a) => a.Properties.MetricName).sort()).toEqual(['OverdueBookings', 'OverdueDeliveries']);
    for (const a of own) {
      expect(METRIC_NAMES).toContain(a.Properties.MetricName);
      // Exactly the dimensions infra/metrics.ts publishes, or the alarm watches an empty series.
      expect(a.Properties.Dimensions).toEqual([
        { Name: 'service', Value: METRICS_SERVICE },
        { Name: 'stage', Value: '${sls:stage}' },
      ]);
      expect(a.Properties.TreatMissingData).toBe('breaching');
    }
  });
});
