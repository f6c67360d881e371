import * as v from 'valibot';
import { CALENDAR_DATE_RULE, HORIZON_NOTE, isCalendarDate } from '../../domain/catalogue/calendar.ts';
import { INVOICE_LINE_KINDS, INVOICE_STATUSES, SKIP_REASONS } from '../../domain/invoicing/invoice.ts';
import { INVOICE_PAGE } from '../../domain/invoicing/read-invoices.ts';
import { BILLING_RUN_POLICY, MAX_BILLING_BOOKING_IDS, MAX_BILLING_DAYS } from '../../domain/invoicing/request-billing-run.ts';
import { BILLING_SCENARIOS } from '../../domain/sandbox/billing-scenarios.ts';
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
  periodFrom: v.pipe(DateSchema, v.description('First day of the period billed.')),
  periodTo: v.pipe(DateSchema, v.description('Last day of the period billed.')),
  cutoff: v.pipe(DateTimeSchema, v.description('Charges that occurred up to this instant (the end of periodTo in India) were selected.')),
  invoiceIds: v.pipe(
    v.array(v.pipe(v.string(), v.uuid())),
    v.description('Invoices written or finished by this run, DRAFTs (that could not be issued yet) included.'),
  ),
  linesWritten: v.pipe(v.number(), v.description('Invoice lines this run wrote (for a run handed to the billing worker, those written before it answered).')),
  blockedStates: v.pipe(
    v.array(
      v.object({
        state: v.pipe(v.string(), v.description("The property's state.")),
        lineCount: v.pipe(v.number(), v.description('Lines held back.')),
        taxableValue: Rupees('Their taxable value, in rupees.'),
      }),
    ),
    v.description('States with no GST registration of ours: their lines are held back, not billed.'),
  ),
  skippedEntries: v.pipe(
    v.array(
      v.object({
        ledgerEntryId: v.pipe(v.string(), v.uuid(), v.description('The charge on your ledger that was not billed.')),
        bookingId: v.pipe(v.string(), v.description('Its booking.')),
        reason: v.pipe(
          v.picklist(SKIP_REASONS),
          v.description(
            'BOOKING_NOT_FOUND; NO_CHARGE_LINES (a booking stored without its breakdown); PROPERTY_UNKNOWN (the property left the catalogue); NEEDS_CREDIT_NOTE (what is invoiced no longer matches what the booking owes: for an operator credit note).',
          ),
        ),
      }),
    ),
    v.description('Charges that could not be billed, with why.'),
  ),
  unreconciledEntries: v.pipe(
    v.array(
      v.object({
        ledgerEntryId: v.pipe(v.string(), v.uuid(), v.description('The charge on your ledger.')),
        bookingId: v.pipe(v.string(), v.description('Its booking.')),
        chargedAmount: Rupees("The booking's net POSTED amount, in rupees."),
        billedAmount: Rupees('What its lines would bill, in rupees.'),
      }),
    ),
    v.description("Charges whose lines would not add up to the booking's net POSTED amount: reported, never billed."),
  ),
});

export const InvoiceSchema = v.pipe(
  v.object({
    id: v.pipe(v.string(), v.uuid(), v.description('The invoice id, for GET /v1/invoices/{id}.')),
    invoiceNumber: v.pipe(v.nullable(v.string()), v.description("From the registration's series per GSTIN and financial year; null until issued.")),
    status: v.pipe(v.picklist(INVOICE_STATUSES), v.description('DRAFT (being written, not yet issued), ISSUED (owing or a credit note), PAID, or CANCELLED.')),
    issueDate: v.pipe(v.nullable(DateSchema), v.description('Date of issue; null on a DRAFT.')),
    dueDate: v.pipe(v.nullable(DateSchema), v.description("Issue date plus your group's payment terms; null on a DRAFT.")),
    periodFrom: v.pipe(DateSchema, v.description('First day of the period billed.')),
    periodTo: v.pipe(DateSchema, v.description('Last day of the period billed.')),
    subtotal: Rupees('Σ taxable value of the lines (after discounts).'),
    cgst: Rupees('Central GST: half the GST when the place of supply is the state of our registration (the odd paisa here).'),
    sgst: Rupees('State GST: the other half in that case.'),
    igst: Rupees('Integrated GST: all of it when the place of supply is another state.'),
    discount: Rupees('Discounts already deducted in the taxable values (cancellation plan, bank offer); informational.'),
    total: Rupees('subtotal + cgst + sgst + igst.'),
    amountPaid: Rupees('Payments allocated to this invoice.'),
    creditedAmount: Rupees('Credit notes raised against this invoice.'),
    amountDue: Rupees('total − amountPaid − creditedAmount.'),
    overdueSince: v.pipe(v.nullable(DateSchema), v.description('The day after dueDate while amountDue is above 0 (India calendar); null otherwise.')),
    supplierGstin: v.pipe(v.string(), v.description('Our GSTIN in the state of supply.')),
    supplierName: v.pipe(v.string(), v.description('Our legal name on that registration.')),
    supplierAddress: v.pipe(v.string(), v.description('Our address on that registration.')),
    billToGstin: v.pipe(v.nullable(v.string()), v.description("Your agent group's GSTIN; null when it has none.")),
    billToName: v.pipe(v.string(), v.description("Your agent group's billing name.")),
    billToAddress: v.pipe(v.string(), v.description("Your agent group's billing address.")),
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
                accountNumber: v.pipe(v.string(), v.description('The virtual account number to transfer to.')),
                ifsc: v.pipe(v.string(), v.description('Its IFSC.')),
                bankName: v.pipe(v.string(), v.description('Its bank.')),
                beneficiaryName: v.pipe(v.string(), v.description('The beneficiary name to give.')),
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
    creditNoteFor: v.pipe(v.nullable(v.pipe(v.string(), v.uuid())), v.description('On a credit note: the id of the invoice it corrects; null on an invoice.')),
  }),
  v.description('A GST tax invoice, or a credit note (creditNoteFor set), of your agent group.'),
);

export const InvoiceLineSchema = v.object({
  id: v.pipe(v.string(), v.uuid(), v.description('The line id.')),
  lineKind: v.pipe(
    v.picklist(INVOICE_LINE_KINDS),
    v.description(
      'STAY (one property, one night), MEAL, SERVICE, ADJUSTMENT (price difference absorbed by an amendment), CANCELLATION (amount retained on cancellation).',
    ),
  ),
  sac: v.pipe(v.string(), v.description('The SAC code: 996311 (accommodation) on every line.')),
  description: v.pipe(v.string(), v.description('The line in words, as the PDF prints it.')),
  propertyName: v.pipe(v.string(), v.description('The property supplied.')),
  bookingId: v.pipe(v.string(), v.description("The property system's booking id.")),
  externalBookingId: v.pipe(
    v.nullable(v.string()),
    v.description('Your own booking reference (the externalBookingId you booked with); null on lines billed before 2026-11-28, which did not keep it.'),
  ),
  itemRef: v.pipe(
    v.string(),
    v.description("Which part of the booking's price the line bills (property and night, meal or service and date), unique within the booking."),
  ),
  nightDate: v.pipe(v.nullable(DateSchema), v.description('The night of a STAY line, the date of a dated meal or service; null otherwise.')),
  checkIn: v.pipe(DateSchema, v.description("The booking's check-in.")),
  checkOut: v.pipe(DateSchema, v.description("The booking's check-out.")),
  quantity: v.pipe(v.number(), v.description('Units, servings or items billed.')),
  unitBase: Rupees("The line's value before discounts per unit, in rupees."),
  taxableValue: Rupees('The value GST is charged on, after discounts, in rupees.'),
  gstRate: v.pipe(v.number(), v.description('The GST rate, in percent.')),
  cgst: Rupees('Central GST, in rupees.'),
  sgst: Rupees('State GST, in rupees.'),
  igst: Rupees('Integrated GST, in rupees.'),
  lineTotal: Rupees('taxableValue + cgst + sgst + igst.'),
  creditNoteForLine: v.pipe(v.nullable(v.pipe(v.string(), v.uuid())), v.description('On a credit note: the line it credits; null otherwise.')),
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

export const InvoiceIdParamsSchema = v.strictObject({ id: v.pipe(v.string(), v.uuid('id must be an invoice id (a UUID).'), v.description('The invoice id.')) });

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
    `Sandbox stages only: header \`X-Test-Scenario\` (${BILLING_SCENARIOS.join(', ')}) forces an issue that fails, an IRP outage or a run handed to the worker (docs/sandbox.md); production ignores it.`,
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
        data: v.pipe(v.array(InvoiceSchema), v.description('Invoices and credit notes of this page, newest issueDate first.')),
        nextCursor: v.pipe(v.nullable(v.string()), v.description('Pass as cursor for the next page; null on the last page.')),
        outstanding: Rupees('Issued totals less payments and credit notes, over all your invoices (not the page), in rupees.'),
        oldestDueDate: v.pipe(v.nullable(DateSchema), v.description('The earliest due date of an invoice still owing; null when none is.')),
        outstandingInvoiceCount: v.pipe(v.number(), v.description('Invoices still owing, over all your invoices.')),
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
        lines: v.pipe(v.array(InvoiceLineSchema), v.description("The lines; they add up to the invoice's subtotal, taxes and total.")),
        creditNotes: v.pipe(
          v.array(
            v.object({
              id: v.pipe(v.string(), v.uuid(), v.description('The credit note id.')),
              invoiceNumber: v.pipe(v.string(), v.description('Its number.')),
              issueDate: v.pipe(DateSchema, v.description('Its date of issue.')),
              total: Rupees('Its total, in rupees.'),
            }),
          ),
          v.description('Credit notes raised against this invoice.'),
        ),
        creditNoteForNumber: v.pipe(v.nullable(v.string()), v.description("On a credit note: the corrected invoice's number; null otherwise.")),
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
