import type { Intrinsic } from './cloudformation.ts';
import { getAtt } from './cloudformation.ts';
import type { GrantName } from './grants.ts';

export { getAtt };

/** A queue trigger: a batch per invocation, failures reported per message, at most `maximumConcurrency` invocations at once. */
export interface SqsEvent {
  readonly sqs: {
    readonly arn: Intrinsic;
    readonly batchSize: number | string;
    readonly functionResponseType: 'ReportBatchItemFailures';
    readonly maximumConcurrency: string;
  };
}

/** An EventBridge schedule: `rate(…)`/`cron(…)`, optionally turned off by a param. */
export interface ScheduleEvent {
  readonly schedule: string | { readonly rate: string; readonly enabled: string };
}

/**
 * One Lambda function of the stack (docs/decisions/platform.md "Functions and IAM from manifests"):
 * what serverless.yml's `functions` entry held, written as data the type checker reads. Values may
 * be serverless variables (`${param:…}`), resolved per stage at package time.
 */
export interface FunctionManifest {
  /** `<module path>.<export>`, as serverless names it. */
  readonly handler: string;
  readonly memorySize?: number;
  readonly timeout?: number;
  readonly reservedConcurrency?: string;
  readonly environment?: Readonly<Record<string, string>>;
  readonly package?: { readonly patterns: string | readonly string[] };
  /**
   * `'http'`: an area function (functions/areas/); its events are the route keys its router serves,
   * generated into infra/deploy/http-events.yml. Otherwise the queue and schedule triggers.
   */
  readonly events: 'http' | readonly (SqsEvent | ScheduleEvent)[];
  /** The function's IAM statements by name (infra/deploy/grants.ts), in the role's order. */
  readonly grants: readonly GrantName[];
}

export const defineFunction = (manifest: FunctionManifest): FunctionManifest => manifest;

/**
 * Work no partner waits on (queue and scheduled workers) waits out a slow store a little longer
 * than a request (1.5 s, 2 attempts: Config.aws) before its message or run is retried: a worker that
 * gives up after 1.5 s turns a busy store into failed runs and redeliveries. Worst case 4 × 5 s stays
 * well inside every worker's timeout (60 s and up).
 */
export const workerSdkLimits = {
  AWS_CONNECT_TIMEOUT_MS: '${param:workerConnectTimeoutMs}',
  AWS_REQUEST_TIMEOUT_MS: '${param:workerRequestTimeoutMs}',
  AWS_MAX_ATTEMPTS: '${param:workerMaxAttempts}',
} as const;

/** The PDF renderers' fonts beside the bundle (serverless.yml custom.pdfFontPatterns; scripts/check-packaged-fonts.ts). */
export const pdfFonts = { patterns: '${self:custom.pdfFontPatterns}' } as const;

/**
 * A worker of a FIFO queue that carries catalogue changes in the order they were sent (catalogue
 * sync, Channex changes): a batch applies as one run (1 GB, 2 minutes), the batch size one param
 * for both (`syncBatchSize`: 10 in the cloud, 1 offline), capped at the stage's worker concurrency.
 */
export const fifoWorker = (worker: { readonly handler: string; readonly queue: string; readonly grants: readonly GrantName[] }): FunctionManifest =>
  defineFunction({
    handler: worker.handler,
    memorySize: 1024,
    timeout: 120,
    reservedConcurrency: '${param:workerConcurrency}',
    environment: workerSdkLimits,
    events: [
      {
        sqs: {
          arn: getAtt(worker.queue),
          batchSize: '${param:syncBatchSize}',
          functionResponseType: 'ReportBatchItemFailures',
          maximumConcurrency: '${param:workerConcurrency}',
        },
      },
    ],
    grants: worker.grants,
  });
