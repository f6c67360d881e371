import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { METRIC_NAMES } from '../../domain/ports/metrics.ts';
import { alarms, logicalIdOf } from '../../infra/deploy/alarms.ts';
import { functionManifests } from '../../functions/manifests/index.ts';
import { ALARMS_FILE, alarmsYaml } from '../../scripts/alarms-yaml.ts';
import { serverlessYaml } from '../support/serverless-yaml.ts';

/** The names of docs/deploy.md "Alarms" table's rows (`…-<name>`), in the order written. */
function runbookRows(): string[] {
  const doc = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
  const section = doc.split('\n## Alarms\n')[1]!.split('\n## ')[0]!;
  return [...section.matchAll(/^\| `…-([a-z0-9-]+)` \|/gm)].map((m) => m[1]!);
}

describe('alarms from infra/deploy/alarms.ts (infra/deploy/resources/alarms.yml)', () => {
  it('is current: `npm run deploy:generate` wrote it from the definition as it is', () => {
    expect(readFileSync(ALARMS_FILE, 'utf8')).toBe(alarmsYaml());
  });

  it('gives the template exactly the defined alarms, under distinct names and logical ids', () => {
    const resources = serverlessYaml().resources.Resources as Record<string, { Type: string; Properties: { AlarmName: string } }>;
    const inTemplate = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::CloudWatch::Alarm');

    expect(inTemplate.map(([id]) => id)).toEqual(alarms.map(logicalIdOf));
    expect(inTemplate.map(([, r]) => r.Properties.AlarmName)).toEqual(alarms.map((a) => `\${self:service}-\${sls:stage}-${a.name}`));
    expect(new Set(alarms.map((a) => a.name)).size).toBe(alarms.length);
  });

  it('watches only counts domain/ports/metrics.ts names, and functions that exist', () => {
    for (const alarm of alarms) {
      if ('deadLetterQueue' in alarm) continue;
      if ('own' in alarm.metric) expect(METRIC_NAMES, alarm.name).toContain(alarm.metric.own);
      if ('lambda' in alarm.metric) expect(Object.keys(functionManifests), alarm.name).toContain(alarm.metric.function);
    }
  });

  it('watches every dead-letter queue of the template', () => {
    const resources = serverlessYaml().resources.Resources as Record<string, { Type: string }>;
    const deadLetterQueues = Object.keys(resources).filter((name) => resources[name]!.Type === 'AWS::SQS::Queue' && name.includes('DeadLetter'));

    expect(alarms.flatMap((a) => ('deadLetterQueue' in a ? [a.deadLetterQueue] : [])).sort()).toEqual(deadLetterQueues.sort());
  });

  it('has a row in the runbook (docs/deploy.md "Alarms") for every alarm, and no row for an alarm that is gone', () => {
    const rows = runbookRows();

    expect(new Set(rows).size).toBe(rows.length);
    expect([...rows].sort()).toEqual(alarms.map((a) => a.name).sort());
  });
});
