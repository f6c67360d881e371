import { handler as listAuditEvents } from '../audit/list-audit-events.ts';
import { handler as listPartnerAuditEvents } from '../audit/list-partner-audit-events.ts';
import { areaRouter } from '../http/area-router.ts';
import { handler as getInvoice } from '../invoices/get-invoice.ts';
import { handler as listInvoices } from '../invoices/list-invoices.ts';
import { handler as runBilling } from '../invoices/run-billing.ts';
import { handler as listLedger } from '../ledger/list-ledger.ts';
import { handler as fallback } from '../system/fallback.ts';
import { handler as listFinanceContacts } from '../finance-contacts/list-finance-contacts.ts';
import { handler as createFinanceContact } from '../finance-contacts/create-finance-contact.ts';
import { handler as updateFinanceContact } from '../finance-contacts/update-finance-contact.ts';
import { handler as deleteFinanceContact } from '../finance-contacts/delete-finance-contact.ts';
import { billingAdapters } from '../../infra/compose/adapters/billing.ts';
import { bookingAdapters } from '../../infra/compose/adapters/bookings.ts';
import { mailAdapters } from '../../infra/compose/adapters/mail.ts';
import { paymentAdapters } from '../../infra/compose/adapters/payments.ts';
import { wire } from '../../infra/compose/core.ts';

// The adapters this function uses beyond the core's (infra/compose/core.ts, wire; `npm run check:wiring` holds it to what its code reads).
wire(billingAdapters, bookingAdapters, mailAdapters, paymentAdapters);

/**
 * A group's account: ledger, invoices and the billing run, its finance contacts, and both audit trails.
 * The invoice PDF and the statement (which answers a PDF too) have their own function (functions/areas/invoice-pdf.ts):
 * its artifact carries the fonts and the renderers.
 */
export const handler = areaRouter(
  [
    listLedger,
    listInvoices,
    getInvoice,
    runBilling,
    listAuditEvents,
    listPartnerAuditEvents,
    listFinanceContacts,
    createFinanceContact,
    updateFinanceContact,
    deleteFinanceContact,
  ],
  fallback,
);
