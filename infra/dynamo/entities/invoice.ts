import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Invoice } from '../../../domain/invoicing/invoice.ts';
import { writeIf } from '../client.ts';
import { ITEM_EXISTS, ITEM_IS_NEW, itemOf, recordOf } from '../items.ts';
import { keys } from '../keys.ts';

/*
 * The Invoice item (invoices and credit notes): PK = GROUP#<g>, SK = INVOICE#<id>; on GSI1 once
 * issued (the group's list) or voided (its registration's cancelled documents); on GSI2 while a
 * step is left to do. Every store that writes it takes its conditions from here.
 */

/**
 * Named conditions on an invoice. Placeholders each expects: `#status` → status, `:draft` →
 * 'DRAFT', `:null` → 'NULL', `:true` → true, and those named at each.
 */
export const invoiceConditions = {
  exists: ITEM_EXISTS,
  /** A new document (a DRAFT, a credit note): an id collision refuses it. */
  isNew: ITEM_IS_NEW,
  /** Lines join only a DRAFT: an operator abandoning it between plan and write cancels the write. */
  invoiceIsDraft: '#status = :draft',
  /**
   * A large invoice's lines are written by lanes at once, each moving its own lane item. Until the
   * lanes are closed onto it the invoice is `linesOpen`: its figures are not final, so it is not
   * numbered, abandoned or removed as empty; a run that died meanwhile leaves it for the next to close.
   */
  linesClosed: 'attribute_not_exists(linesOpen)',
  /** A DRAFT is written with `invoiceNumber: null` (stored as NULL); one holding a reserved number takes no other. */
  unnumbered: '(attribute_not_exists(invoiceNumber) OR attribute_type(invoiceNumber, :null))',
  /** An invoice leaves the open index once nothing is left to do. */
  nothingLeft: 'attribute_exists(pdfKey) AND bookingsMarked = :true',
  /**
   * An invoice takes an allocation only in the state it was read in: still ISSUED, paid exactly
   * what was read (`:issued` → 'ISSUED', `:prev` the amount paid read, `:zero` → 0).
   */
  paidAsRead: '#status = :issued AND (amountPaid = :prev OR (attribute_not_exists(amountPaid) AND :prev = :zero))',
  /** A refund takes back from an invoice only in the status and amount paid it was read with (`:was`, `:prev`). */
  takenBackAsRead: '#status = :was AND amountPaid = :prev',
  /** A pay link or order is replaced only from the one read, and only while the invoice is ISSUED (`:replaces`, `:issued`). */
  orderReplaces: 'gatewayOrderId = :replaces AND #status = :issued',
  /** Lanes are writing its lines: only the closing of the lanes may write the figures they add up. */
  linesOpen: 'attribute_exists(linesOpen)',
  /** A DRAFT no line joined (`:zero` → 0): removed rather than numbered. */
  noLines: 'lineCount = :zero',
  /** Not registered at the IRP yet: a registration is written once. */
  unregistered: 'attribute_not_exists(eInvoice)',
  /** Not held back from the IRP by an operator or a refusal. */
  notHeld: 'attribute_not_exists(eInvoiceHold)',
  /** Issued, paid or not (`:issued`, `:paid`): what the IRP registers. */
  issuedOrPaid: '#status IN (:issued, :paid)',
  /** Still holding the number read (`:n`). */
  numberedAs: 'invoiceNumber = :n',
  /** A PDF is stored only for a document that left DRAFT. */
  notDraft: '#status <> :draft',
  /** A pay link is kept only on an invoice that is not cancelled (`:cancelled` → 'CANCELLED'). */
  notCancelled: '#status <> :cancelled',
  /**
   * A pay link replaces only the one read (`:r` its id), and a first one only where none is
   * held: of two refreshes at once, the one that read the link still there wins.
   */
  payLinkIs: 'payLink.linkId = :r',
  noPayLink: '(attribute_not_exists(payLink) OR payLink = :null)',
  /**
   * A credit note corrects an invoice only in the figures it was planned on: issued or paid
   * (`:issued`, `:paid`), not itself a credit note, paid `:ep` and credited `:ec` (`:zero` → 0).
   */
  creditFiguresAt:
    '#status IN (:issued, :paid) AND attribute_not_exists(creditNoteFor) AND (amountPaid = :ep OR (attribute_not_exists(amountPaid) AND :ep = :zero)) AND (creditedAmount = :ec OR (attribute_not_exists(creditedAmount) AND :ec = :zero))',
  /**
   * A credit note's void gives its credit back only to an ISSUED invoice (a PAID one would owe
   * again under a status that says it does not), in the figures planned on (`:ep`, `:ec`).
   */
  creditTakenBackAt:
    '#status = :issued AND attribute_not_exists(creditNoteFor) AND (amountPaid = :ep OR (attribute_not_exists(amountPaid) AND :ep = :zero)) AND creditedAmount = :ec',
  /** A credit note voided at the IRP: issued with this IRN (`:irn`), of the invoice it credits (`:invoice`), none of its credit released (`:zero`). */
  /** Whether its amount due moves the group's dues (docs/data-model.md "Dues"): pinned as read by every writer that moves them. */
  dueTracked: 'attribute_exists(dueTracked)',
  dueUntracked: 'attribute_not_exists(dueTracked)',
  /**
   * The dues backfill tracks an invoice only untracked and in the figures it counted (`#total` →
   * total, `:total`, `:paid`, `:credited`, `:zero` → 0): a payment or credit since re-reads it.
   */
  untrackedAsCounted:
    'attribute_not_exists(dueTracked) AND #total = :total AND (amountPaid = :paid OR (attribute_not_exists(amountPaid) AND :paid = :zero)) AND (creditedAmount = :credited OR (attribute_not_exists(creditedAmount) AND :credited = :zero))',
  creditNoteVoidable: '#status = :issued AND eInvoice.irn = :irn AND creditNoteFor = :invoice AND creditReleased = :zero',
  /**
   * Voidable at the IRP (`:issued`, `:irn`, `:zero`, `:true`): issued with this IRN, fully issued
   * (PDF stored, bookings marked), nothing paid or credited; otherwise a credit note is the way.
   */
  voidable:
    '#status = :issued AND eInvoice.irn = :irn AND attribute_exists(pdfKey) AND bookingsMarked = :true AND (attribute_not_exists(amountPaid) OR amountPaid = :zero) AND (attribute_not_exists(creditedAmount) OR creditedAmount = :zero)',
} as const;

export const invoiceEntity = {
  name: 'Invoice',
  key: keys.invoice,
  /** A new DRAFT: on the open index from its creation; its bookings are added as its lines are written. */
  toItem(invoice: Invoice): Record<string, unknown> {
    const { bookingRefs: _none, ...rest } = invoice;
    return itemOf(
      'Invoice',
      { ...keys.invoice(invoice.agentGroupId, invoice.id), ...keys.openInvoiceIndex(invoice.agentGroupId, invoice.createdAt, invoice.id) },
      rest,
    );
  },
  fromItem(item: Record<string, unknown>): Invoice {
    const refs = item.bookingRefs;
    return {
      ...recordOf<Invoice>(item),
      lastError: (item.lastError as string | undefined) ?? null,
      bookingRefs: refs instanceof Set ? [...(refs as Set<string>)].sort() : ((refs as string[] | undefined) ?? []),
    };
  },
  conditions: invoiceConditions,
} as const;

/** Takes an issued invoice off the open index once its last step (its PDF, its booking marks) is done; nothing otherwise. */
export async function closeIfDone(db: DynamoDBDocumentClient, table: string, agentGroupId: string, invoiceId: string): Promise<void> {
  await writeIf(
    db,
    new UpdateCommand({
      TableName: table,
      Key: keys.invoice(agentGroupId, invoiceId),
      UpdateExpression: 'REMOVE GSI2PK, GSI2SK',
      ConditionExpression: invoiceConditions.nothingLeft,
      ExpressionAttributeValues: { ':true': true },
    }),
  );
}
