import type { EInvoicePayload } from '../../domain/invoicing/e-invoice.ts';
import type {
  EInvoiceCancellation,
  EInvoiceCancelled,
  EInvoiceDetails,
  EInvoiceRegistered,
  EInvoiceRegistry,
  Taxpayer,
} from '../../domain/ports/e-invoice-registry.ts';

/**
 * The IRP of each registration GSTIN (docs/decisions.md, "E-invoicing: one stage, the IRP
 * per registration"): the portal for the registrations whose credentials the stage secret
 * holds, the fallback (the sandbox IRP) for the others. Get GSTIN details is not about one
 * of our registrations: the fallback answers it from its own list, so the checks at the door
 * behave the same on every sandbox stage.
 */
export class RoutedEInvoiceRegistry implements EInvoiceRegistry {
  constructor(
    private readonly onPortal: ReadonlySet<string>,
    private readonly portal: EInvoiceRegistry,
    private readonly fallback: EInvoiceRegistry,
  ) {}

  private of(registrationGstin: string): EInvoiceRegistry {
    return this.onPortal.has(registrationGstin) ? this.portal : this.fallback;
  }

  register(document: EInvoicePayload): Promise<EInvoiceRegistered> {
    return this.of(document.SellerDtls.Gstin).register(document);
  }

  accept(sent: EInvoicePayload, details: EInvoiceDetails): Promise<EInvoiceRegistered> {
    return this.of(sent.SellerDtls.Gstin).accept(sent, details);
  }

  cancel(cancellation: EInvoiceCancellation): Promise<EInvoiceCancelled> {
    return this.of(cancellation.supplierGstin).cancel(cancellation);
  }

  taxpayer(gstin: string): Promise<Taxpayer> {
    return this.fallback.taxpayer(gstin);
  }
}
