import type { AuditDraft } from '../audit/audit-event.ts';
import type { BillingRunResult, BillingTrigger } from '../invoicing/invoice.ts';

/**
 * One group's share of a billing run over every group: a message on the billing queue,
 * handled by one worker. The India day is the run's, fixed when it was queued, so a message
 * handled after midnight (a redelivery, a backlog) still bills the period of its run's day:
 * a (group, period) is billed once however often its message arrives.
 */
export interface BillingJob {
  readonly runId: string;
  readonly agentGroupId: string;
  /** The run's India day (yyyy-mm-dd): the group's last closed period is taken from it. */
  readonly day: string;
  readonly trigger: BillingTrigger;
  /** Bill the last closed period even when a scheduled run already did (the admin tool's run over all groups). */
  readonly force: boolean;
  /** The group had invoices a run left open when the run was queued. */
  readonly openWork: boolean;
  /** Set on the continuation of a POST /v1/invoices run that handed its DRAFTs on: bill that request's scope into them. */
  readonly handOff?: BillingHandOff;
}

/** What a handed-off run asked for, and the DRAFTs it left to be continued. */
export interface BillingHandOff {
  readonly period: { readonly from: string; readonly to: string };
  readonly cutoff: string;
  readonly bookingIds?: readonly string[];
  readonly invoiceIds: readonly string[];
}

/** Where a run over every group sends its groups: the billing queue, drained by the billing worker. */
export interface BillingQueue {
  /** Sends every job; throws when any could not be sent (the scheduler's retry queues the run again, which is harmless). */
  enqueue(jobs: readonly BillingJob[]): Promise<void>;
}

export type GroupOutcomeKind = 'BILLED' | 'UP_TO_DATE' | 'FAILED';

/** What a worker did for one group of a run, as the run record keeps it. */
export interface GroupOutcomeRecord {
  readonly agentGroupId: string;
  readonly outcome: GroupOutcomeKind;
  /** The failure's message (FAILED), or the group's billing run id (BILLED). */
  readonly detail: string | null;
  /** Invoices the group's billing run issued (BILLED; 0 otherwise): what `billing run --wait` counts. */
  readonly invoicesIssued: number;
  readonly at: string;
}

/** A run over every group: its record, written before any of its messages is sent. */
export interface FanOutRun {
  readonly runId: string;
  readonly trigger: BillingTrigger;
  readonly day: string;
  readonly startedAt: string;
  readonly enqueued: number;
}

/** One run's progress across its groups. `pending` have no outcome yet (queued, in a worker, or waiting out a retry). */
export interface FanOutProgress extends FanOutRun {
  readonly billed: number;
  readonly upToDate: number;
  readonly failed: number;
  readonly pending: number;
  /** Invoices issued by the groups billed so far. */
  readonly invoicesIssued: number;
  /** The groups whose latest attempt failed, with why (a redelivery may still bill them; after 5 attempts the message is in the dead-letter queue). */
  readonly failures: readonly { readonly agentGroupId: string; readonly error: string; readonly attempts: number; readonly at: string }[];
}

/**
 * The one record of billing runs: each group's run (what it invoiced), and each run over every
 * group with one item per group it reached.
 */
export interface BillingRunLog {
  /** A group's run, with the run's audit event in the same transaction. */
  saveRun(result: BillingRunResult, audit: AuditDraft): Promise<void>;
  /** A group's latest runs (of every group without one), newest first. */
  groupRuns(limit: number, agentGroupId?: string): Promise<BillingRunResult[]>;
  /** Writes the run (again, when the schedule retries the same day's run: the count is replaced, outcomes kept). */
  startRun(run: FanOutRun): Promise<void>;
  /**
   * Keeps a group's outcome. A success is never replaced (a redelivery after BILLED finds the
   * group up to date, and the record keeps BILLED); a failure is replaced by the next attempt's outcome.
   */
  recordGroup(runId: string, outcome: GroupOutcomeRecord): Promise<void>;
  progress(runId: string): Promise<FanOutProgress | undefined>;
  /** The latest runs, newest first. */
  recentRuns(limit: number): Promise<FanOutRun[]>;
}
