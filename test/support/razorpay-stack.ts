import { randomBytes } from 'node:crypto';
import '../../infra/payments/with-razorpay.ts';
import { parseConfig } from '../../infra/config.ts';
import { buildServices, type Services } from '../../infra/container.ts';
import { startOffline, type OfflineServer } from '../../scripts/local-stack.ts';
import { FakeRazorpay } from './fake-razorpay.ts';
import { stack } from './stack.ts';

export interface RazorpayStack {
  readonly fake: FakeRazorpay;
  readonly baseUrl: string;
  /** The service's environment on this stack (PAYMENT_GATEWAY=razorpay, the SDK pointed at the fake): for the admin tool too. */
  readonly env: Record<string, string>;
  readonly svc: Services;
  stop(): Promise<void>;
}

/**
 * A second offline server over the shared test table and queues, running the Razorpay adapter
 * (the official SDK) against the fake Razorpay of this test process. Its schedules are off, so
 * the shared stack's sweepers keep owning the table's work.
 */
export async function startRazorpayStack(): Promise<RazorpayStack> {
  const webhookSecret = randomBytes(24).toString('base64url');
  const fake = await new FakeRazorpay(webhookSecret).start();
  const env = {
    ...stack().env,
    PAYMENT_GATEWAY: 'razorpay',
    RAZORPAY_KEY_ID: fake.keyId,
    RAZORPAY_KEY_SECRET: fake.keySecret,
    RAZORPAY_API_URL: fake.url,
    RAZORPAY_WEBHOOK_SECRET: webhookSecret,
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
  return {
    fake,
    baseUrl: offline.baseUrl,
    env,
    svc: buildServices(parseConfig(env)),
    stop: async () => {
      await offline.stop();
      await fake.stop();
    },
  };
}
