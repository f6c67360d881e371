import type { PayLink } from '../../../domain/invoicing/invoice.ts';
import type { PayLinkStore } from '../../../domain/ports/pay-link-store.ts';
import type { VirtualAccount } from '../../../domain/ports/payment-gateway.ts';

interface Held {
  status: string;
  payLink: PayLink | null;
  gatewayOrderId?: string;
  payTo?: VirtualAccount | null;
}

/** The PayLinkStore port in memory, its conditions those of the DynamoDB store (infra/dynamo/dynamo-pay-link-store.ts). */
export class InMemoryPayLinkStore implements PayLinkStore {
  /** Invoices by `group/invoice`. */
  readonly invoices = new Map<string, Held>();
  private readonly links = new Map<string, { agentGroupId: string; invoiceId: string }>();

  /** An invoice in `status` holding `payLink`, as issuing leaves it. */
  hold(agentGroupId: string, invoiceId: string, payLink: PayLink | null, status = 'ISSUED'): void {
    this.invoices.set(`${agentGroupId}/${invoiceId}`, { status, payLink });
    if (payLink) this.links.set(payLink.linkId, { agentGroupId, invoiceId });
  }

  payLinkOf(agentGroupId: string, invoiceId: string): PayLink | null | undefined {
    return this.invoices.get(`${agentGroupId}/${invoiceId}`)?.payLink;
  }

  async setGatewayOrder(agentGroupId: string, invoiceId: string, gatewayOrderId: string, _at: string, payTo?: VirtualAccount): Promise<void> {
    const held = this.invoices.get(`${agentGroupId}/${invoiceId}`);
    if (held?.status !== 'DRAFT') throw new Error(`invoice ${invoiceId} is not a draft`);
    held.gatewayOrderId = gatewayOrderId;
    held.payTo = payTo ?? null;
  }

  async setPayLink(agentGroupId: string, invoiceId: string, link: PayLink | null, replaces: string | null, _at: string): Promise<boolean> {
    const held = this.invoices.get(`${agentGroupId}/${invoiceId}`);
    if (!held || held.status === 'CANCELLED' || (held.payLink?.linkId ?? null) !== replaces) return false;
    held.payLink = link;
    if (link) this.links.set(link.linkId, { agentGroupId, invoiceId });
    return true;
  }

  async invoicesWithPayLinks(agentGroupId: string): Promise<string[]> {
    return [...this.invoices].filter(([k, h]) => k.startsWith(`${agentGroupId}/`) && h.payLink).map(([k]) => k.slice(agentGroupId.length + 1));
  }

  async payLinkInvoice(linkId: string): Promise<{ readonly agentGroupId: string; readonly invoiceId: string } | undefined> {
    return this.links.get(linkId);
  }
}
