import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { financialYearOf } from '../../domain/invoicing/billing-period.ts';
import { IRP_DOCUMENT_NUMBER, type EInvoicePayload } from '../../domain/invoicing/e-invoice.ts';
import type { Clock } from '../../domain/ports/clock.ts';
import {
  EInvoiceHeldError,
  EInvoiceRejectedError,
  EInvoiceUnavailableError,
  type EInvoiceCancellation,
  type EInvoiceCancelled,
  type EInvoiceDetails,
  type EInvoiceRegistered,
  type EInvoiceRegistry,
  type Taxpayer,
} from '../../domain/ports/e-invoice-registry.ts';

/** What the sandbox IRP keeps of a document it registered (the real IRP's own record). */
export interface SandboxIrpRecord {
  readonly irn: string;
  readonly ackNo: string;
  readonly ackDate: string;
  readonly signedQrCode: string;
  readonly signedInvoice: string;
}

/** The sandbox IRP's memory of registered documents, shared by every process of a stage. */
export interface SandboxIrpMemory {
  /** Keeps the record unless its IRN is kept already; answers the record kept for that IRN and whether it was there before. */
  keep(record: SandboxIrpRecord): Promise<{ readonly record: SandboxIrpRecord; readonly existed: boolean }>;
  /** The record kept for an IRN and whether it was cancelled. */
  get(irn: string): Promise<(SandboxIrpRecord & { readonly cancelledAt?: string }) | undefined>;
  /** Marks the IRN cancelled unless it is already; whether this call cancelled it. */
  cancel(irn: string, at: string): Promise<boolean>;
}

/**
 * The sandbox IRP's taxpayer list (its answer to Get GSTIN details). Any other well-formed
 * GSTIN is an active taxpayer whose name and address the sandbox does not know; these ones
 * carry a name and address, or the states the real IRP answers (docs/sandbox.md).
 */
export const SANDBOX_TAXPAYERS: readonly Taxpayer[] = [
  {
    gstin: '27AAPFU0939F1ZV',
    legalName: 'Test Agents Pvt Ltd',
    tradeName: 'Test Agents',
    address: { line1: '1 Test Road', line2: null, city: 'Mumbai', stateCode: '27', postalCode: '400001' },
    status: 'ACT',
    blocked: false,
  },
  { gstin: '29AABCC1111C1Z9', legalName: 'Closed Travels Pvt Ltd', tradeName: null, address: null, status: 'CNL', blocked: false },
  { gstin: '07AABCI2222I1Z5', legalName: 'Idle Tours LLP', tradeName: null, address: null, status: 'INA', blocked: false },
  { gstin: '33AABCB3333B1Z2', legalName: 'Blocked Holidays Pvt Ltd', tradeName: null, address: null, status: 'ACT', blocked: true },
  { gstin: '19AABCP5555P1Z3', legalName: 'Provisional Trips Pvt Ltd', tradeName: null, address: null, status: 'PRO', blocked: false },
];
/** GSTINs the sandbox IRP does not know (its 3001 "Requested data is not available"). */
export const SANDBOX_UNKNOWN_GSTINS: readonly string[] = ['24AAACU4444U1Z1'];

/** The issuer the sandbox writes into its tokens (the real IRP writes "NIC"). */
export const SANDBOX_IRP_ISSUER = 'NIC-SANDBOX';

const b64url = (s: string | Buffer): string => Buffer.from(s).toString('base64url');

/** A JWT (HS256) as the sandbox IRP signs: `{data: <JSON text>, iss}`, like the IRP's signed QR and signed invoice. */
export function signSandboxJwt(key: Buffer, data: unknown): string {
  const head = `${b64url(JSON.stringify({ alg: 'HS256', kid: 'sandbox-irp', typ: 'JWT' }))}.${b64url(JSON.stringify({ data: JSON.stringify(data), iss: SANDBOX_IRP_ISSUER }))}`;
  return `${head}.${createHmac('sha256', key).update(head).digest('base64url')}`;
}

/** The data of a token the sandbox IRP signed with this key; throws when the signature does not hold. */
export function verifySandboxJwt(key: Buffer, token: string): Record<string, unknown> {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || signature === undefined || token.split('.').length !== 3) throw new Error('not a signed token (three dot-separated parts)');
  const expected = createHmac('sha256', key).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Error('the signature does not hold for this key');
  const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { data?: unknown; iss?: unknown };
  if (body.iss !== SANDBOX_IRP_ISSUER || typeof body.data !== 'string') throw new Error('not a token of the sandbox IRP');
  return JSON.parse(body.data) as Record<string, unknown>;
}

/** dd/mm/yyyy → yyyy-mm-dd. */
const isoDate = (irpDate: string): string => irpDate.split('/').reverse().join('-');

/**
 * The IRN as the IRP computes it: SHA-256 (hex) of the supplier's GSTIN, the financial year
 * of the document date (yyyy-yy), the document type and the document number.
 */
export function irnOf(doc: Pick<EInvoicePayload, 'SellerDtls' | 'DocDtls'>): string {
  return createHash('sha256')
    .update(`${doc.SellerDtls.Gstin}${financialYearOf(isoDate(doc.DocDtls.Dt))}${doc.DocDtls.Typ}${doc.DocDtls.No}`)
    .digest('hex');
}

const GSTIN = /^[0-9]{2}[A-Z0-9]{13}$/;
const paise = (rupees: number): number => Math.round(rupees * 100);

/** INV-01 v1.1 free text: `^([^\"])*$` (no double quote, no backslash) within its lengths. */
const FREE_TEXT = /^[^\\"]*$/;

/** The first INV-01 v1.1 schema rule the document breaks among the fields we send (free text and EcmGstin), as a path and reason. */
function schemaViolationOf(doc: EInvoicePayload): string | undefined {
  const ecm = (doc.TranDtls as { EcmGstin?: unknown }).EcmGstin;
  if (ecm !== undefined && (typeof ecm !== 'string' || !/^([0-9]{2}[0-9A-Z]{13})$/.test(ecm)))
    return `TranDtls.EcmGstin must be a 15-character GSTIN string when present; got ${JSON.stringify(ecm)}`;
  const texts: [string, unknown, number, number][] = [];
  for (const [role, p] of [
    ['SellerDtls', doc.SellerDtls],
    ['BuyerDtls', doc.BuyerDtls],
  ] as const) {
    texts.push([`${role}.LglNm`, p?.LglNm, 3, 100], [`${role}.Addr1`, p?.Addr1, 1, 100], [`${role}.Loc`, p?.Loc, 3, 50]);
    if (p?.Addr2 !== undefined) texts.push([`${role}.Addr2`, p.Addr2, 3, 100]);
  }
  (doc.ItemList ?? []).forEach((i, n) => texts.push([`ItemList[${n}].PrdDesc`, i.PrdDesc, 3, 300]));
  // INV-01 3.1 "Preceding Document Reference" (a credit note's invoice): number 1–16 characters and date DD/MM/YYYY, both mandatory once the section is there.
  for (const [n, p] of (doc.RefDtls?.PrecDocDtls ?? []).entries()) {
    if (typeof p?.InvNo !== 'string' || p.InvNo.length < 1 || p.InvNo.length > 16)
      return `RefDtls.PrecDocDtls[${n}].InvNo must be 1–16 characters; got ${JSON.stringify(p?.InvNo ?? null)}`;
    if (typeof p.InvDt !== 'string' || !/^\d{2}\/\d{2}\/\d{4}$/.test(p.InvDt))
      return `RefDtls.PrecDocDtls[${n}].InvDt must be a date DD/MM/YYYY; got ${JSON.stringify(p.InvDt ?? null)}`;
  }
  for (const [path, value, min, max] of texts) {
    if (typeof value !== 'string' || value.length < min || value.length > max || !FREE_TEXT.test(value))
      return `${path} must be ${min}–${max} characters without " or \\; got ${JSON.stringify(value)}`;
  }
  return undefined;
}

/**
 * The IRP's checks the sandbox makes, each refused with the IRP's own code (its published
 * error list): the obvious data errors a real IRP would refuse before any IRN is made.
 */
export function rejectionOf(doc: EInvoicePayload, today: string): EInvoiceRejectedError | undefined {
  const seller = doc.SellerDtls?.Gstin;
  if (!seller) return new EInvoiceRejectedError('2155', 'Supplier GSTIN is required');
  if (!GSTIN.test(seller)) return new EInvoiceRejectedError('2140', `Error while validating invoice: SellerDtls.Gstin "${seller}" is not a GSTIN`);
  // INV-01 v1.1, DocDtls.No: at most 16, upper-case letters, digits, "/" and "-", never starting with 0, "/" or "-".
  if (!IRP_DOCUMENT_NUMBER.test(doc.DocDtls?.No ?? ''))
    return new EInvoiceRejectedError(
      '2140',
      `Error while validating invoice: DocDtls.No "${doc.DocDtls?.No ?? ''}" does not match ^([A-Z1-9]{1}[A-Z0-9/-]{0,15})$`,
    );
  const schema = schemaViolationOf(doc);
  if (schema) return new EInvoiceRejectedError('2140', `Error while validating invoice: ${schema}`);
  const buyer = doc.BuyerDtls?.Gstin;
  if (doc.TranDtls.SupTyp === 'B2B' && (!buyer || !GSTIN.test(buyer))) {
    return new EInvoiceRejectedError(
      '2140',
      `Error while validating invoice: BuyerDtls.Gstin must be the recipient's GSTIN for supply type B2B; got ${JSON.stringify(buyer ?? null)}`,
    );
  }
  if (isoDate(doc.DocDtls.Dt) > today) return new EInvoiceRejectedError('2163', 'The document date should not be future date');
  const items = doc.ItemList ?? [];
  if (items.length === 0) return new EInvoiceRejectedError('2140', 'Error while validating invoice: ItemList needs at least one item');
  const intra = doc.SellerDtls.Stcd === doc.BuyerDtls.Pos;
  if (intra && doc.TranDtls.IgstOnIntra === 'N' && items.some((i) => i.IgstAmt !== 0)) {
    return new EInvoiceRejectedError('2172', 'For intra-state transaction, IGST amounts are not applicable; only CGST and SGST amounts are applicable');
  }
  if (!intra && items.some((i) => i.CgstAmt !== 0 || i.SgstAmt !== 0)) {
    return new EInvoiceRejectedError('2173', 'For inter-state transaction, CGST and SGST amounts are not applicable; only IGST amount is applicable');
  }
  for (const i of items) {
    // Per item: AssAmt = TotAmt − Discount (2193), and TotItemVal = AssAmt + its taxes (2194); a price reduction before tax lives here.
    if (paise(i.AssAmt) !== paise(i.TotAmt) - paise(i.Discount))
      return new EInvoiceRejectedError('2193', `For HSN - ${i.HsnCd} and Sl. No - ${i.SlNo}, AssAmt value should be equal to (TotAmt - Discount)`);
    const itemValue = paise(i.AssAmt) + paise(i.CgstAmt) + paise(i.SgstAmt) + paise(i.IgstAmt) + paise(i.CesAmt);
    if (Math.abs(itemValue - paise(i.TotItemVal)) > 100)
      return new EInvoiceRejectedError('2194', `For HSN - ${i.HsnCd} and Sl. No - ${i.SlNo}, TotItemVal value should be equal to (AssAmt + taxes)`);
  }
  const v = doc.ValDtls;
  if (items.reduce((s, i) => s + paise(i.AssAmt), 0) !== paise(v.AssVal))
    return new EInvoiceRejectedError('2182', 'Total assessable value of all the items does not match the invoice assessable value');
  const itemsValue = items.reduce((s, i) => s + paise(i.TotItemVal), 0) - paise(v.Discount) + paise(v.OthChrg) + paise(v.RndOffAmt);
  // The IRP allows a difference of one rupee either way.
  if (Math.abs(itemsValue - paise(v.TotInvVal)) > 100) return new EInvoiceRejectedError('2189', 'Invalid total invoice value');
  return undefined;
}

/** "yyyy-mm-dd hh:mm:ss" in India time, as the IRP writes AckDt. */
export const irpInstant = (at: Date): string => new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 19).replace('T', ' ');

/**
 * The e-invoice registration portal of local and sandbox stages, behind the same port a
 * real provider's adapter implements. It behaves like the IRP: validates the document
 * (refusals carry the IRP's codes), computes the IRN from supplier GSTIN, financial year,
 * type and number, answers an acknowledgement number and date, and signs the QR payload
 * and the invoice (HS256 under the sandbox's key; the real IRP signs RS256 under its own).
 * A document registered before is the IRP's 2150 "Duplicate IRN": the real API answers it
 * with the IRN, and the client then fetches that registration by IRN; this adapter does both
 * and answers the first registration, `duplicate: true`.
 */
export class SandboxEInvoiceRegistry implements EInvoiceRegistry {
  constructor(
    private readonly signingKey: Buffer,
    private readonly memory: SandboxIrpMemory,
    private readonly clock: Clock,
  ) {}

  async register(doc: EInvoicePayload): Promise<EInvoiceRegistered> {
    const now = this.clock.now();
    const rejection = rejectionOf(doc, irpInstant(now).slice(0, 10));
    if (rejection) throw rejection;
    const irn = irnOf(doc);
    const ackDate = irpInstant(now);
    const ackNo = `1${ackDate.slice(2, 4)}${String(randomInt(1e6)).padStart(6, '0')}${String(randomInt(1e6)).padStart(6, '0')}`;
    const qr = {
      SellerGstin: doc.SellerDtls.Gstin,
      BuyerGstin: doc.BuyerDtls.Gstin,
      DocNo: doc.DocDtls.No,
      DocTyp: doc.DocDtls.Typ,
      DocDt: doc.DocDtls.Dt,
      TotInvVal: doc.ValDtls.TotInvVal,
      ItemCnt: doc.ItemList.length,
      MainHsnCode: doc.ItemList[0]!.HsnCd,
      Irn: irn,
      IrnDt: ackDate,
    };
    const fresh: SandboxIrpRecord = {
      irn,
      ackNo,
      ackDate,
      signedQrCode: signSandboxJwt(this.signingKey, qr),
      signedInvoice: signSandboxJwt(this.signingKey, { AckNo: ackNo, AckDt: ackDate, Irn: irn, ...doc }),
    };
    let kept;
    try {
      kept = await this.memory.keep(fresh);
    } catch (err) {
      // The IRP's own storage failing is, to its client, the IRP not answering (its 2146 "try after some time").
      throw new EInvoiceUnavailableError(`2146 Unable to create IRN, please try after some time (${err instanceof Error ? err.message : String(err)})`);
    }
    return { ...kept.record, duplicate: kept.existed };
  }

  /** A registration is ours only when the sandbox IRP keeps exactly it for the document's IRN (it never rotates its key). */
  async accept(sent: EInvoicePayload, d: EInvoiceDetails): Promise<EInvoiceRegistered> {
    const record = await this.unavailableUnless(() => this.memory.get(d.Irn));
    if (!record || record.irn !== irnOf(sent) || record.signedQrCode !== d.SignedQRCode) {
      throw new EInvoiceHeldError(
        'RECONCILE',
        { irn: d.Irn, ackNo: String(d.AckNo), ackDate: d.AckDt },
        `the sandbox IRP keeps no registration ${d.Irn} of document ${sent.DocDtls.No}`,
      );
    }
    return {
      irn: record.irn,
      ackNo: record.ackNo,
      ackDate: record.ackDate,
      signedQrCode: record.signedQrCode,
      signedInvoice: record.signedInvoice,
      duplicate: true,
    };
  }

  /** Cancel IRN as the IRP answers it: 2148 unknown, 9999 already cancelled, 2270 after 24 hours. */
  async cancel(c: EInvoiceCancellation): Promise<EInvoiceCancelled> {
    const record = await this.unavailableUnless(() => this.memory.get(c.irn));
    if (!record?.irn.length) throw new EInvoiceRejectedError('2148', 'Requested IRN data is not available');
    if (record.cancelledAt) throw new EInvoiceRejectedError('9999', 'Invoice is not active');
    const now = this.clock.now();
    if (now.getTime() - Date.parse(`${record.ackDate.replace(' ', 'T')}+05:30`) > 24 * 3600_000) {
      throw new EInvoiceRejectedError('2270', 'The allowed cancellation time limit is crossed, you cannot cancel the IRN');
    }
    const cancelDate = irpInstant(now);
    if (!(await this.unavailableUnless(() => this.memory.cancel(c.irn, cancelDate)))) throw new EInvoiceRejectedError('9999', 'Invoice is not active');
    return { irn: c.irn, cancelDate };
  }

  /** Get GSTIN details from the sandbox's own list. */
  async taxpayer(gstin: string): Promise<Taxpayer> {
    const known = SANDBOX_TAXPAYERS.find((t) => t.gstin === gstin);
    if (known) return known;
    if (!GSTIN.test(gstin) || SANDBOX_UNKNOWN_GSTINS.includes(gstin)) throw new EInvoiceRejectedError('3001', 'Requested data is not available');
    return { gstin, legalName: null, tradeName: null, address: null, status: 'ACT', blocked: false };
  }

  private async unavailableUnless<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (err) {
      throw new EInvoiceUnavailableError(`the sandbox IRP could not read its records (${err instanceof Error ? err.message : String(err)})`);
    }
  }
}
