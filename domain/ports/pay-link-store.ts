import type { PayLink } from '../invoicing/invoice.ts';
import type { VirtualAccount } from './payment-gateway.ts';

/** An invoice's ways to be paid at the gateway (its order, its pay link) and their ways back to it. */
export interface PayLinkStore {
  setGatewayOrder(agentGroupId: string, invoiceId: string, gatewayOrderId: string, at: string, payTo?: VirtualAccount): Promise<void>;
  /**
   * Makes `link` the invoice's pay link (null: none), its way back (link → invoice) and the group's list of invoices holding a
   * link written with it; false, writing nothing, when the invoice's link is no longer `replaces` (null: none yet) or it is
   * CANCELLED.
   */
  setPayLink(agentGroupId: string, invoiceId: string, link: PayLink | null, replaces: string | null, at: string): Promise<boolean>;
  /** The invoices of the group holding a pay link (a settled one's is cancelled by the next refresh). */
  invoicesWithPayLinks(agentGroupId: string): Promise<string[]>;
  /** The group and invoice a pay link was made for. */
  payLinkInvoice(linkId: string): Promise<{ readonly agentGroupId: string; readonly invoiceId: string } | undefined>;
}
