import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { addDays } from '../../domain/catalogue/calendar.ts';
import { indiaToday } from '../../domain/reads/date-window.ts';
import { reconcilePayments, type ReconcileReport } from '../../domain/receivables/gateway-accounts.ts';
import { parseConfig } from '../../infra/config.ts';
import { buildServices, reconcileDeps, type Services } from '../../infra/container.ts';
import { provisionQueues, startOffline, type OfflineServer } from '../../scripts/local-stack.ts';
import { TEST_OPERATOR } from './audit-origin.ts';
import { FakeRazorpay, type SignedWebhook } from './fake-razorpay.ts';
import { privateQueues } from './private-queues.ts';
import { call, stack, type CallResult, type GroupFixture } from './stack.ts';

export interface RazorpayStack {
  readonly fake: FakeRazorpay;
  readonly baseUrl: string;
  /** The service's environment on this stack (PAYMENT_GATEWAY=razorpay, the SDK pointed at the fake): for the admin tool too. */
  readonly env: Record<string, string>;
  readonly svc: Services;
  /** A call to this stack; like the shared stack's, a 503 of a loaded machine is retried after Retry-After. */
  call(method: string, path: string, opts?: Parameters<typeof call>[2]): Promise<CallResult<any>>;
  /** A webhook of the fake posted to this stack's notification endpoint (its own headers, or others to test refusals). */
  deliver(w: SignedWebhook, headers?: Record<string, string>): Promise<CallResult<any>>;
  /** The partner's invoice as this stack answers it (200 expected). */
  invoiceOf(g: GroupFixture, id: string): Promise<any>;
  /** One group's reconciliation, as `payments reconcile --group` runs it, on this stack's services (the SDK against the fake). */
  reconcile(g: GroupFixture): Promise<ReconcileReport>;
  stop(): Promise<void>;
}

/** The billing period of the Razorpay e2e tests: the 30 India days to today. */
export const billingPeriod = () => ({ from: addDays(indiaToday(new Date()), -30), to: indiaToday(new Date()) });

/**
 * A second offline server over the shared test table (with queues of its own), running the Razorpay adapter
 * (the official SDK) against the fake Razorpay of this test process. Its schedules are off, so
 * the shared stack's sweepers keep owning the table's work.
 */
export async function startRazorpayStack(): Promise<RazorpayStack> {
  const webhookSecret = randomBytes(24).toString('base64url');
  const fake = await new FakeRazorpay(webhookSecret).start();
  // A billing queue of its own that no worker drains: a change of what is owed asks there for the links to follow, and these
  // tests move links by the reconciliation they run (the prompt path has test/integration/pay-link-follows.test.ts); on the
  // shared queue the shared stack's worker (the sandbox gateway) or this one would take the asks at moments of their own.
  const queue = `rz-billing-${randomBytes(4).toString('hex')}`;
  const queueUrl = (await provisionQueues(stack().env.SQS_ENDPOINT!, [queue]))[queue]!;
  const env = {
    ...stack().env,
    ...fake.serviceEnv(),
    // Its workers drain queues of their own: on the shared ones a stop lost the shared stack's messages for minutes.
    ...(await privateQueues(stack().env.SQS_ENDPOINT!, 'rz')),
    BILLING_QUEUE_URL: queueUrl,
    ESBUILD_PREBUILT: '.esbuild',
    SCHEDULES_ENABLED: 'false',
  };
  let offline: OfflineServer | undefined;
  try {
    offline = await startOffline({ stage: 'test', env });
  } catch (err) {
    await fake.stop();
    throw err;
  }
  const svc = buildServices(parseConfig(env));
  const rzCall = async (method: string, path: string, opts: Parameters<typeof call>[2] = {}) => {
    for (let attempt = 0; ; attempt++) {
      const res = await call(method, path, { ...opts, baseUrl: offline.baseUrl });
      if (res.status !== 503 || attempt >= 3) return res;
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
    }
  };
  return {
    fake,
    baseUrl: offline.baseUrl,
    env,
    svc,
    call: rzCall,
    deliver: (w, headers = w.headers) => rzCall('POST', '/gateway/notifications', { rawBody: w.body, headers }),
    invoiceOf: async (g, id) => {
      const res = await rzCall('GET', `/v1/invoices/${id}`, { key: g.apiKey });
      expect(res.status, res.text).toBe(200);
      return res.body.invoice;
    },
    reconcile: (g) => reconcilePayments(reconcileDeps(svc), TEST_OPERATOR, g.agentGroupId),
    stop: async () => {
      await offline.stop();
      await fake.stop();
    },
  };
}
