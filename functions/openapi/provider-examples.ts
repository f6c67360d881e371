/**
 * Request examples of the two signed inbound notifications, taken from the providers' own
 * published samples: a run against the local stack would show what our fakes send, and these
 * bodies are the providers' to define. test/unit/openapi-examples.test.ts checks each against its
 * route's schema and reads it through the same code the handler uses.
 */
export const PROVIDER_REQUEST_EXAMPLES: Readonly<Record<string, { readonly summary: string; readonly request: unknown }>> = {
  /**
   * Razorpay's payment.captured sample as published, byte for byte: razorpay/razorpay-node
   * documents/paymentVerfication.md, "Verify webhook verification" (commit 9737ef17), where it is
   * signed `55d3c166…459a` under the secret `123456`; the test checks that signature still holds.
   * The same envelope as razorpay.com/docs/webhooks/payments, sample payloads.
   */
  receiveGatewayNotification: {
    summary: "Razorpay's published payment.captured sample (razorpay-node, documents/paymentVerfication.md)",
    request: {
      entity: 'event',
      account_id: 'acc_Hn1ukn2d32Fqww',
      event: 'payment.captured',
      contains: ['payment'],
      payload: {
        payment: {
          entity: {
            id: 'pay_JRP3Y66cNcf2qF',
            entity: 'payment',
            amount: 2244,
            currency: 'INR',
            status: 'captured',
            order_id: 'order_JROxH1kSf9IR6d',
            invoice_id: null,
            international: false,
            method: 'card',
            amount_refunded: 0,
            refund_status: null,
            captured: true,
            description: '#J9iMHZMUTJlod8',
            card_id: 'card_JRP3YBkFQYCmnR',
            card: {
              id: 'card_JRP3YBkFQYCmnR',
              entity: 'card',
              name: 'ankit das',
              last4: '4366',
              network: 'Visa',
              type: 'credit',
              issuer: 'UTIB',
              international: false,
              emi: true,
              sub_type: 'consumer',
              token_iin: null,
            },
            bank: null,
            wallet: null,
            vpa: null,
            email: 'you@example.com',
            contact: '+917000569565',
            notes: { policy_name: 'Jeevan Bima' },
            fee: 45,
            tax: 0,
            error_code: null,
            error_description: null,
            error_source: null,
            error_step: null,
            error_reason: null,
            acquirer_data: { auth_code: '548669' },
            created_at: 1651722469,
          },
        },
      },
      created_at: 1651722476,
    },
  },
  /**
   * Channex's "Changes API" example (docs.channex.io, "For OTA → Open Channel API"; copy in
   * github.com/gungcahyadipp/channex-open-channel, docs_channex.md) with its placeholders filled:
   * `{UUID}` a UUID v4, `{HOTEL_CODE}` a listing of ours, `{ROOM_TYPE_ID}` and `{RATE_PLAN_ID}`
   * one of its properties and meal plans as mapping_details lists them; the page's dates
   * (2020-02-02..04, past) moved to 2027 keeping the three days; its rates' currency INR, the
   * currency mapping_details gives every plan (Channex sends the plan's: "Prices (rates)"). The
   * page prints a trailing comma after `"max_stay": 0`, which is not JSON; everything else as printed.
   */
  channexChanges: {
    summary: "Channex's published Changes API example (Open Channel API), placeholders filled",
    request: {
      data: [
        {
          type: 'changes_notification',
          attributes: {
            request_id: '6f1c2b8e-4d3a-4f5b-9e7c-1a2b3c4d5e6f',
            hotel_code: 'onlya-0f09491c',
            changes: [
              {
                type: 'availability_changes',
                attributes: {
                  room_type_id: 'onlya-0f09491c-p1',
                  rate_plan_id: 'onlya-0f09491c-p1:EP',
                  date_from: '2027-02-02',
                  date_to: '2027-02-04',
                  availability: 10,
                },
              },
              {
                type: 'restriction_changes',
                attributes: {
                  rate_plan_id: 'onlya-0f09491c-p1:EP',
                  room_type_id: 'onlya-0f09491c-p1',
                  date_from: '2027-02-02',
                  date_to: '2027-02-04',
                  rates: [{ rate: '200.00', currency: 'INR', fraction_size: 2 }],
                  stop_sell: true,
                  closed_to_arrival: false,
                  closed_to_departure: false,
                  min_stay_arrival: 1,
                  min_stay_through: 1,
                  max_stay: 0,
                },
              },
            ],
          },
        },
      ],
    },
  },
};
