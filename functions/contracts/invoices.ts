import * as v from 'valibot';
import { CALENDAR_DATE_RULE, HORIZON_NOTE, isCalendarDate } from '../../domain/catalogue/calendar.ts';
import { INVOICE_LINE_KINDS, INVOICE_STATUSES, SKIP_REASONS } from '../../domain/invoicing/invoice.ts';
import { INVOICE_PAGE } from '../../domain/invoicing/read-invoices.ts';
import { BILLING_RUN_POLICY, MAX_BILLING_BOOKING_IDS, MAX_BILLING_DAYS } from '../../domain/invoicing/request-billing-run.ts';
import { defineRoute } from '../http/route.ts';
import { AUTHENTICATED_ERRORS, DateTimeSchema, ErrorBodySchema, pageSizeParam } from './common.ts';

const TAG = ['Invoices'];
const Rupees = (description: string) => v.pipe(v.number(), v.description(description));
const DateSchema = v.pipe(v.string(), v.isoDate());
const dateField = (name: string, description: string) =>
  v.pipe(
    v.string(`${name} must be a date (yyyy-mm-dd).`),
    v.isoDate(`${name} must be ${CALENDAR_DATE_RULE}.`),
    v.check(isCalendarDate, `${name} must be ${CALENDAR_DATE_RULE}.`),
    v.description(`${description} ${HORIZON_NOTE}`),
  );

/** Optional: an empty body bills the period most recently closed. */
export const BillingRunBodySchema = v.optional(
  v.strictObject({
    from: v.optional(dateField('from', 'Inclusive start of the period, recorded on the invoices; requires to.')),
    to: v.optional(
      dateField(
        'to',
        `Inclusive end: charges up to the end of this day (India time) are billed; requires from; at most ${MAX_BILLING_DAYS} days after from; not after today.`,
      ),
    ),
    bookingIds: v.optional(
      v.pipe(
        v.array(
          v.pipe(
            v.string('bookingIds must hold strings.'),
            v.minLength(1, 'bookingIds must not contain empty ids.'),
            v.maxLength(64, 'bookingIds ids are at most 64 characters.'),
          ),
          'bookingIds must be an array of booking ids.',
        ),
        v.maxLength(MAX_BILLING_BOOKING_IDS, `bookingIds may hold at most ${MAX_BILLING_BOOKING_IDS} ids.`),
        v.description(
          `At most ${MAX_BILLING_BOOKING_IDS} property-system booking ids; not with from/to. Ids that are not yours, unknown, or without a POSTED charge are silently not billed.`,
        ),
      ),
    ),
  }),
);

export const BillingRunResultSchema = v.object({
  periodFrom: DateSchema,
  periodTo: DateSchema,
  cutoff: v.pipe(DateTimeSchema, v.description('Charges that occurred up to this instant (the end of periodTo in India) were selected.')),
  invoiceIds: v.pipe(
    v.array(v.pipe(v.string(), v.uuid())),
    v.description('Invoices written or finished by this run, DRAFTs (that could not be issued yet) included.'),
  ),
  linesWritten: v.pipe(v.number(), v.description('Invoice lines this run wrote (for a run handed to the billing worker, those written before it answered).')),
  blockedStates: v.pipe(
    v.array(v.object({ state: v.string(), lineCount: v.number(), taxableValue: v.number() })),
    v.description('States with no GST registration of ours: their lines are held back, not billed.'),
  ),
  skippedEntries: v.array(
    v.object({
      ledgerEntryId: v.pipe(v.string(), v.uuid()),
      bookingId: v.string(),
      reason: v.pipe(v.picklist(SKIP_REASONS), v.description(SKIP_REASONS.join(', '))),
    }),
  ),
  unreconciledEntries: v.pipe(
    v.array(v.object({ ledgerEntryId: v.pipe(v.string(), v.uuid()), bookingId: v.string(), chargedAmount: v.number(), billedAmount: v.number() })),
    v.description("Charges whose lines would not add up to the booking's net POSTED amount: reported, never billed."),
  ),
});

export const InvoiceSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  invoiceNumber: v.pipe(v.nullable(v.string()), v.description("From the registration's series per GSTIN and financial year; null until issued.")),
  status: v.picklist(INVOICE_STATUSES),
  issueDate: v.nullable(DateSchema),
  dueDate: v.nullable(DateSchema),
  periodFrom: DateSchema,
  periodTo: DateSchema,
  subtotal: Rupees('Σ taxable value of the lines (after discounts).'),
  cgst: v.number(),
  sgst: v.number(),
  igst: v.number(),
  discount: Rupees('Discounts already deducted in the taxable values (cancellation plan, bank offer); informational.'),
  total: Rupees('subtotal + cgst + sgst + igst.'),
  amountPaid: v.number(),
  creditedAmount: v.number(),
  amountDue: Rupees('total − amountPaid − creditedAmount.'),
  overdueSince: v.nullable(DateSchema),
  supplierGstin: v.string(),
  supplierName: v.string(),
  supplierAddress: v.string(),
  billToGstin: v.nullable(v.string()),
  billToName: v.string(),
  billToAddress: v.string(),
  placeOfSupply: v.pipe(v.string(), v.description('The property\'s state and its GST state code, e.g. "Goa (30)".')),
  gatewayOrderId: v.pipe(
    v.nullable(v.string()),
    v.description(
      'The Razorpay order for exactly the amount due now; null once nothing is due, and for up to an hour after a payment or credit note changed the amount due (a fresh order replaces it).',
    ),
  ),
  paymentInstructions: v.pipe(
    v.nullable(
      v.object({
        gatewayOrderId: v.pipe(
          v.nullable(v.string()),
          v.description('Pay online (card, UPI, netbanking) against this Razorpay order: it collects exactly the amount due, in one payment.'),
        ),
        bankTransfer: v.pipe(
          v.nullable(
            v.object({
              accountNumber: v.string(),
              ifsc: v.string(),
              bankName: v.string(),
              beneficiaryName: v.string(),
              reference: v.pipe(v.nullable(v.string()), v.description('Quote it with the transfer (the invoice number).')),
            }),
          ),
          v.description(
            "The group's own virtual bank account (NEFT/RTGS/IMPS): a transfer into it is recorded without anyone typing it, allocated to the oldest invoice due first.",
          ),
        ),
      }),
    ),
    v.description('How to pay this invoice; null for a credit note or an invoice of 0.'),
  ),
  payLink: v.pipe(
    v.nullable(
      v.object({
        url: v.pipe(v.string(), v.description('The Razorpay payment page (card, UPI, netbanking) to send the payer to.')),
        amount: Rupees('What the link collects: exactly the amount due, in one payment.'),
        expiresAt: v.pipe(v.string(), v.description('After this instant (ISO 8601, UTC) the link takes no payment.')),
      }),
    ),
    v.description(
      'A payment link for exactly the amount due now, as e-mailed with the invoice and printed on its PDF. Null as soon as a payment, credit note or refund changes the amount due, until a link for the rest replaces it (within the hour); null once nothing is due, for a credit note, and where the stage makes no links (sandbox).',
    ),
  ),
  creditNoteFor: v.nullable(v.pipe(v.string(), v.uuid())),
});

export const InvoiceLineSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  lineKind: v.pipe(
    v.picklist(INVOICE_LINE_KINDS),
    v.description(
      'STAY (one property, one night), MEAL, SERVICE, ADJUSTMENT (price difference absorbed by an amendment), CANCELLATION (amount retained on cancellation).',
    ),
  ),
  sac: v.string(),
  description: v.string(),
  propertyName: v.string(),
  bookingId: v.string(),
  externalBookingId: v.pipe(
    v.nullable(v.string()),
    v.description('Your own booking reference (the externalBookingId you booked with); null on lines billed before 2026-11-28, which did not keep it.'),
  ),
  itemRef: v.string(),
  nightDate: v.nullable(DateSchema),
  checkIn: DateSchema,
  checkOut: DateSchema,
  quantity: v.number(),
  unitBase: v.number(),
  taxableValue: v.number(),
  gstRate: v.number(),
  cgst: v.number(),
  sgst: v.number(),
  igst: v.number(),
  lineTotal: v.number(),
  creditNoteForLine: v.nullable(v.pipe(v.string(), v.uuid())),
});

const statusList = v.optional(
  v.pipe(
    v.string(),
    v.transform((s) => [...new Set(s.split(',').map((x) => x.trim()))]),
    v.description('ISSUED, PAID (both by default), comma-separated or repeated. DRAFT, CANCELLED and unknown values are 400.'),
  ),
);

export const InvoiceListQuerySchema = v.strictObject({
  status: statusList,
  from: v.optional(dateField('from', 'Issue dates on or after this date.')),
  to: v.optional(dateField('to', 'Issue dates on or before this date.')),
  cursor: v.optional(
    v.pipe(v.string(), v.minLength(1, 'cursor must not be empty.'), v.description('nextCursor of the previous page, unchanged, with the same filters.')),
  ),
  size: v.optional(pageSizeParam(INVOICE_PAGE.maxSize, `Page size, 1–${INVOICE_PAGE.maxSize}; default ${INVOICE_PAGE.defaultSize}.`)),
});

export const InvoiceIdParamsSchema = v.strictObject({ id: v.pipe(v.string(), v.uuid('id must be an invoice id (a UUID).')) });

const NOT_FOUND = { 404: { description: "No such invoice in your agent group (another group's invoice reads the same).", schema: ErrorBodySchema } };

export const createBillingRunRoute = defineRoute({
  operationId: 'runBilling',
  method: 'POST',
  path: '/v1/invoices',
  auth: 'v1',
  summary: 'Run billing now',
  description: [
    "Turns your outstanding POSTED charges into ISSUED GST invoices, one per supplier registration (the property's state), with the same engine as the daily run.",
    'An empty body bills the period most recently closed for your group (billing cycle and anchor day). Unbilled charges older than from are picked up too.',
    'Re-running is safe: only what is not yet invoiced is billed. A state without our GST registration is reported in blockedStates; an invoice that cannot be issued yet stays DRAFT and its id is still returned.',
    'A large run still writing lines after about five seconds answers with its invoices as DRAFT (linesWritten counts the lines written so far); our billing worker writes the rest into those same invoices and issues them, usually within a minute: read GET /v1/invoices/{id} until it is ISSUED.',
    `One run per account at a time, and about ${BILLING_RUN_POLICY.perMinute} a minute: 429 with Retry-After and a message naming the wait. A request refused because another run is in progress does not count towards the ${BILLING_RUN_POLICY.perMinute}.`,
  ].join(' '),
  tags: TAG,
  body: BillingRunBodySchema,
  bodyOptional: true,
  responses: {
    200: { description: 'The run result.', schema: BillingRunResultSchema },
    ...AUTHENTICATED_ERRORS,
    429: {
      description:
        'Rate limit exhausted for this credential, or a billing run was requested too soon or while another runs for your account; wait Retry-After seconds.',
      schema: ErrorBodySchema,
    },
  },
});

export const listInvoicesRoute = defineRoute({
  operationId: 'listInvoices',
  method: 'GET',
  path: '/v1/invoices',
  auth: 'v1',
  summary: 'Your invoices',
  description:
    'Issued and paid invoices, newest issueDate first, with outstanding (issued invoices less payments and credit notes), oldestDueDate and outstandingInvoiceCount over all of them. Credit notes are rows too: creditNoteFor set, amountDue 0, status ISSUED, numbered from their own series (CN30/2627/000001). nextCursor is set when more may follow; a cursor is bound to your key and filters (altered: 400).',
  tags: TAG,
  query: InvoiceListQuerySchema,
  responses: {
    200: {
      description: 'One page.',
      schema: v.object({
        data: v.array(InvoiceSchema),
        nextCursor: v.nullable(v.string()),
        outstanding: v.number(),
        oldestDueDate: v.nullable(DateSchema),
        outstandingInvoiceCount: v.number(),
      }),
    },
    ...AUTHENTICATED_ERRORS,
  },
});

export const getInvoiceRoute = defineRoute({
  operationId: 'getInvoice',
  method: 'GET',
  path: '/v1/invoices/{id}',
  auth: 'v1',
  summary: 'One invoice with its lines',
  description: "The lines add up to the invoice's subtotal, taxes and total. Issued invoices never change.",
  tags: TAG,
  params: InvoiceIdParamsSchema,
  responses: {
    200: {
      description: 'The invoice.',
      schema: v.object({
        invoice: InvoiceSchema,
        lines: v.array(InvoiceLineSchema),
        creditNotes: v.array(v.object({ id: v.pipe(v.string(), v.uuid()), invoiceNumber: v.string(), issueDate: DateSchema, total: v.number() })),
        creditNoteForNumber: v.nullable(v.string()),
      }),
    },
    ...AUTHENTICATED_ERRORS,
    ...NOT_FOUND,
  },
});

export const getInvoicePdfRoute = defineRoute({
  operationId: 'getInvoicePdf',
  method: 'GET',
  path: '/v1/invoices/{id}/pdf',
  auth: 'v1',
  summary: 'The invoice as a GST tax invoice PDF',
  description:
    'Stored at issue; if missing it is rendered from the stored figures (never re-priced), stored and served. A DRAFT has no document: 409. Neither has a credit note of a supplier registration under e-invoicing until the IRP has registered it (its document prints the IRN): 409 until the next billing run registers it.',
  tags: TAG,
  params: InvoiceIdParamsSchema,
  responses: {
    200: { description: 'The GST tax invoice as a PDF.', document: 'application/pdf' },
    ...AUTHENTICATED_ERRORS,
    ...NOT_FOUND,
    409: {
      description: 'The invoice is a DRAFT (or an abandoned draft), or a credit note awaiting its e-invoice registration: no document exists yet.',
      schema: ErrorBodySchema,
    },
  },
});
