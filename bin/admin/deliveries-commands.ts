import { listFailedDeliveries, resendDelivery } from '../../domain/deliveries/read-deliveries.ts';
import type { DeliveryView } from '../../domain/deliveries/delivery.ts';
import { deliveryDeps } from '../../infra/compose/admin.ts';
import { columns, type CommandSpec } from './command.ts';

const PARTNER_OPTION = { name: 'partner', value: '<partnerId>', required: true, description: 'The partner that owns the deliveries.' } as const;

/** The last attempt in a few words: what an operator reads out to a partner first. */
const lastAttempt = (d: DeliveryView): string => {
  const last = d.attempts.at(-1);
  if (!last) return 'not sent';
  return `#${last.attempt} ${last.statusCode ?? last.outcome} at ${last.at}`;
};

export const deliveriesFailed: CommandSpec = {
  path: ['deliveries', 'failed'],
  summary: "List a partner's FAILED webhook deliveries, newest first, with why each stopped.",
  details: 'Deliveries are kept 30 days. --json prints every attempt (time, status code or error, duration) and the exact payload sent.',
  options: [PARTNER_OPTION],
  examples: ['deliveries failed --partner acme-travel', 'deliveries failed --partner acme-travel --json'],
  async run(args, ctx) {
    const partnerId = args.required('partner');
    const failed = await listFailedDeliveries(deliveryDeps(ctx.services()), partnerId);
    ctx.out.result(failed, () =>
      failed.length === 0
        ? [`No failed deliveries for partner ${partnerId} in the last 30 days.`]
        : columns(
            [
              ['DELIVERY', 'ENDPOINT', 'EVENT', 'ATTEMPTS', 'LAST ATTEMPT', 'CREATED', 'REASON'],
              ...failed.map((d) => [
                d.deliveryId,
                d.endpointId ?? d.callback?.callbackUrl ?? '',
                d.eventType,
                String(d.attempts.length),
                lastAttempt(d),
                d.createdAt,
                d.failureReason ?? '',
              ]),
            ],
            '',
          ),
    );
  },
};

export const deliveriesResend: CommandSpec = {
  path: ['deliveries', 'resend'],
  summary: 'Send a delivery again: a new delivery of the same payload and dedupKey to the same endpoint.',
  details: 'The original stays in the log unchanged. Refused when the endpoint was deleted or is DISABLED.',
  positional: { name: 'deliveryId', description: 'The delivery to send again (from `deliveries failed`).' },
  options: [PARTNER_OPTION],
  examples: ['deliveries resend 0b6f4c1e-3f1d-4a57-9a0e-5d1c2b3a4f5e --partner acme-travel'],
  async run(args, ctx) {
    const partnerId = args.required('partner');
    const resent = await resendDelivery(deliveryDeps(ctx.services()), partnerId, args.positional!);
    ctx.out.result(resent, () => [`Queued delivery ${resent.deliveryId} (resend of ${resent.resendOf}) to endpoint ${resent.endpointId}.`]);
  },
};
