import { describe, expect, it } from 'vitest';
import { CLOUD_STAGES, stageSecretName } from '../../infra/deploy/stage-secret.ts';
import { serverlessYaml } from '../support/serverless-yaml.ts';
import { METRIC_NAMES } from '../../domain/ports/metrics.ts';
import { tableDefinition, TTL_ATTRIBUTE } from '../../infra/dynamo/table.ts';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '../../infra/metrics.ts';
import { routeKeyProblem, routeKeysOfFunctions } from '../../infra/deploy/route-keys.ts';

const sortBy = <T>(xs: readonly T[] | undefined, key: (x: T) => string) => [...(xs ?? [])].sort((a, b) => key(a).localeCompare(key(b)));

describe('serverless.yml resources', () => {
  it('declares the table exactly as infra/dynamo/table.ts defines it (the local stack creates it from there)', () => {
    const table = serverlessYaml().resources.Resources.Table.Properties;
    const local = tableDefinition('x');
    expect(table.BillingMode).toBe(local.BillingMode);
    expect(sortBy(table.AttributeDefinitions, (a: { AttributeName: string }) => a.AttributeName)).toEqual(
      sortBy(local.AttributeDefinitions, (a) => a.AttributeName!),
    );
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
    for (const b of buckets)
      expect(b.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
  });

  it('grants every function only the statements it lists (no provider-wide IAM)', () => {
    const doc = serverlessYaml();
    expect(doc.provider.iam?.role?.statements ?? []).toEqual([]);
    for (const [name, fn] of Object.entries(doc.functions as Record<string, { iamRoleStatements?: unknown[] }>)) {
      expect(Array.isArray(fn.iamRoleStatements), `${name} declares iamRoleStatements`).toBe(true);
    }
  });

  it('gives every cloud stage its own sizing: memory, timeout, log retention and worker concurrency', () => {
    const params = serverlessYaml().params;
    for (const stage of CLOUD_STAGES) {
      for (const name of ['memorySize', 'lambdaTimeout', 'logRetentionInDays', 'workerConcurrency']) {
        expect(params[stage]?.[name], `${stage}.${name}`).toEqual(expect.any(Number));
      }
      // API Gateway answers 503 after 30 s whatever the function does.
      expect(params[stage].lambdaTimeout).toBeLessThanOrEqual(29);
    }
    // The alarm topic param name is what the alarms are conditioned on; empty means none.
    expect(params.default.alarmTopicArn).toBe("${env:ALARM_TOPIC_ARN, ''}");
    expect(params.default.customDomain).toBe("${env:CUSTOM_DOMAIN, ''}");
  });

  it('caps every queue worker: reserved concurrency and its trigger at the stage figure', () => {
    const doc = serverlessYaml();
    const workers = Object.entries(
      doc.functions as Record<string, { reservedConcurrency?: unknown; events?: { sqs?: { maximumConcurrency?: unknown } }[] }>,
    ).filter(([, fn]) => fn.events?.some((e) => e.sqs));
    expect(workers.length).toBeGreaterThanOrEqual(3);
    // The billing worker has its own figure: how many groups' runs may write at once (docs/invoicing.md "Fan-out").
    const param = (name: string) => (name === 'billGroup' ? '${param:billingConcurrency}' : '${param:workerConcurrency}');
    for (const [name, fn] of workers) {
      expect(fn.reservedConcurrency, name).toBe(param(name));
      expect(fn.events!.find((e) => e.sqs)!.sqs!.maximumConcurrency, name).toBe(param(name));
    }
  });

  it('reads both keys from the secret the bootstrap command creates, pinned to the version the pipeline passes', () => {
    const doc = serverlessYaml();
    const params = doc.params.default;
    // stageSecretName(stage) is `<service>/<stage>`, the name the references resolve.
    expect(stageSecretName('prod')).toBe(`${doc.service}/prod`);
    const name = '${self:service}/${sls:stage}';
    expect(params.cursorKey).toBe(`{{resolve:secretsmanager:${name}:SecretString:cursorKey::\${param:secretVersionId}}}`);
    expect(params.secretsKey).toBe(`{{resolve:secretsmanager:${name}:SecretString:secretsKey::\${param:secretVersionId}}}`);
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
      const watching = alarms.filter(
        (a) => a.Properties.Namespace === 'AWS/SQS' && a.Properties.Dimensions?.[0]?.Value?.['Fn::GetAtt']?.join('.') === `${name}.QueueName`,
      );
      expect(watching, `an alarm on ${name}`).toHaveLength(1);
    }
    const own = alarms.filter((a) => a.Properties.Namespace === METRICS_NAMESPACE);
    // A sweeper reports every run, so silence is a sweeper that stopped; the others are counted only when they happen.
    const sweeperReports = ['OverdueBookings', 'OverdueDeliveries'];
    const countedWhenTheyHappen = [
      'AuthorizedPaymentNotOwed',
      'BillingHandOffNotQueued',
      'EInvoiceHeld',
      'EInvoicePastReportingWindow',
      'EInvoiceReportingWindowClosing',
      'MailBounced',
      'MailComplained',
      'MailNotSent',
      'PayLinkAskLost',
      'PaymentDisputed',
      'PaymentNotCaptured',
    ];
    expect(own.map((a) => a.Properties.MetricName).sort()).toEqual([...countedWhenTheyHappen, ...sweeperReports].sort());
    for (const a of own) {
      expect(METRIC_NAMES).toContain(a.Properties.MetricName);
      // Exactly the dimensions infra/metrics.ts publishes, or the alarm watches an empty series.
      expect(a.Properties.Dimensions).toEqual([
        { Name: 'service', Value: METRICS_SERVICE },
        { Name: 'stage', Value: '${sls:stage}' },
      ]);
      expect(a.Properties.TreatMissingData, a.Properties.MetricName).toBe(sweeperReports.includes(a.Properties.MetricName) ? 'breaching' : 'notBreaching');
    }
  });
});

describe('HTTP API route keys (infra/deploy/route-keys.ts: the rules API Gateway enforces at deploy)', () => {
  it('knows the rules: no trailing slash, greedy variable last, whole-segment variables, a routable method', () => {
    for (const ok of ['$default', 'GET /api/ping', 'POST /channel-manager/channex/{proxy+}', 'ANY /', 'DELETE /v1/test-clocks/{id}'])
      expect(routeKeyProblem(ok), ok).toBeUndefined();
    for (const bad of ['GET /channel-manager/channex/test_connection/', 'GET /a/{proxy+}/b', 'GET /a//b', 'GET a', 'FETCH /a', 'GET /a/x{id}', 'GET'])
      expect(routeKeyProblem(bad), bad).toBeDefined();
  });

  it('every stage routes only keys API Gateway accepts: the httpApi events are the same on every stage and none ends in "/"', () => {
    const doc = serverlessYaml();
    const keys = routeKeysOfFunctions(doc.functions);
    expect(keys.length).toBeGreaterThan(40);
    expect(keys).toContain('$default');
    // No event path depends on the stage (no ${param:…} / ${sls:stage}), so the dev, staging and prod templates route these same keys;
    // scripts/check-stages.sh checks the packaged templates themselves (scripts/check-route-keys.ts).
    expect(keys.filter((k) => k.includes('${'))).toEqual([]);
    for (const stage of CLOUD_STAGES)
      expect(
        keys.flatMap((k) => routeKeyProblem(k) ?? []),
        stage,
      ).toEqual([]);
    expect(new Set(keys).size, 'no route key twice').toBe(keys.length);
  });
});
