import type { TestProject } from 'vitest/node';
import { javaProblem, provisionTable, serviceEnv, startDynamoLocal, startFauxqs, startOffline } from '../../scripts/local-stack.ts';

export interface TestStack {
  readonly env: Record<string, string>;
  readonly baseUrl: string;
  readonly lambdaPort: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: TestStack;
  }
}

export default async function setup(project: TestProject) {
  const problem = javaProblem();
  if (problem) throw new Error(problem);
  const started: { stop(): Promise<void> }[] = [];
  const teardown = async () => {
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
  };
  try {
    const [dynamo, queues] = await Promise.all([startDynamoLocal(), startFauxqs()]);
    started.push(dynamo, queues);
    const tableName = 'pds-test';
    await provisionTable(dynamo.endpoint, tableName);
    const env = serviceEnv({ stage: 'test', tableName, dynamodb: dynamo.endpoint, sqs: queues.endpoint, extra: { LOG_LEVEL: 'ERROR' } });
    const logs: string[] = [];
    const offline = await startOffline({ stage: 'test', env, log: (l) => logs.push(l) });
    started.push(offline);
    project.provide('stack', { env, baseUrl: offline.baseUrl, lambdaPort: offline.lambdaPort });
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
