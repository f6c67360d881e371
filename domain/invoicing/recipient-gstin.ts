import { ConflictError, ValidationError } from '../errors.ts';
import { WorldValidationError, type WorldIssue } from '../world/world-validation-error.ts';
import { EInvoiceRejectedError, EInvoiceUnavailableError, type EInvoiceRegistry, type Taxpayer } from '../ports/e-invoice-registry.ts';
import { GSTIN_PATTERN, type PostalAddress } from '../tenants.ts';
import { gstStateByCode } from './gst-state-codes.ts';

const STATUS_WORDS: Readonly<Record<Taxpayer['status'], string>> = { ACT: 'active', CNL: 'cancelled', INA: 'inactive', PRO: 'provisional' };

/**
 * A recipient's GSTIN as the IRP's Get GSTIN details has it, before it goes on a group (and
 * so on every B2B invoice the IRP must accept): unknown to the IRP, or any status but ACT
 * (CNL cancelled, INA inactive, PRO provisional), is refused with the IRP's own words ("GSTIN
 * is not active", its 3029 on Generate IRN), naming the parameter. ACT passes, and with it a
 * suspended registration (the API has no status of its own for one). `BlkStatus` B blocks
 * e-way bills for unfiled returns, not e-invoices: it is no bar (docs/conformance/irp.md).
 */
export async function checkRecipientGstin(registry: Pick<EInvoiceRegistry, 'taxpayer'>, gstin: string, param = 'gstin'): Promise<Taxpayer> {
  // A malformed GSTIN is a typo to name, not a question for the portal.
  if (!GSTIN_PATTERN.test(gstin)) throw new ValidationError(param, `${param} must be a 15-character GSTIN such as 27AAPFU0939F1ZV.`);
  let t: Taxpayer;
  try {
    t = await registry.taxpayer(gstin);
  } catch (err) {
    if (err instanceof EInvoiceRejectedError) throw new ValidationError(param, `The IRP does not know GSTIN ${gstin} (${err.code}): ${err.irpMessage}.`);
    if (err instanceof EInvoiceUnavailableError)
      throw new ConflictError('CONFLICT', `GSTIN ${gstin} could not be checked with the IRP (${err.message}); nothing was changed, try again.`);
    throw err;
  }
  if (t.status !== 'ACT') {
    throw new ValidationError(
      param,
      `GSTIN is not active: the IRP has GSTIN ${gstin}${t.legalName ? ` (${t.legalName})` : ''} as ${STATUS_WORDS[t.status]} (Status ${t.status}), and refuses e-invoices to it (3029).`,
    );
  }
  return t;
}

/** The bill-to the IRP's record gives (legal name and principal address), when it gives both. */
export function billToOf(t: Taxpayer): { readonly legalName: string; readonly address: PostalAddress } | undefined {
  const state = t.address ? gstStateByCode(t.address.stateCode) : undefined;
  if (!t.legalName || !t.address || !state) return undefined;
  return {
    legalName: t.legalName,
    address: {
      line1: t.address.line1,
      ...(t.address.line2 ? { line2: t.address.line2 } : {}),
      city: t.address.city,
      state: state.name,
      postalCode: t.address.postalCode,
      country: 'IN',
    },
  };
}

const sameAddress = (a: PostalAddress, b: PostalAddress): boolean =>
  a.line1 === b.line1 && (a.line2 ?? '') === (b.line2 ?? '') && a.city === b.city && a.state === b.state && a.postalCode === b.postalCode;

/** The IRP's bill-to when it differs from the group's: offered to the operator, never taken without their word. */
export function billToOffer(t: Taxpayer, current: { readonly legalName: string; readonly address: PostalAddress }) {
  const irp = billToOf(t);
  return irp && (irp.legalName !== current.legalName || !sameAddress(irp.address, current.address)) ? irp : undefined;
}

/**
 * The world file's agent-group GSTINs checked with the IRP before anything is imported: every
 * refusal listed by its JSON path, nothing written. Malformed ones are left to the file's own
 * validation, which names them.
 */
export async function checkWorldGstins(registry: Pick<EInvoiceRegistry, 'taxpayer'>, document: unknown): Promise<void> {
  const groups = (document as { tenants?: { agentGroups?: unknown } } | null)?.tenants?.agentGroups;
  if (!Array.isArray(groups)) return;
  const issues: WorldIssue[] = [];
  for (const [i, g] of groups.entries()) {
    const gstin = (g as { gstin?: unknown } | null)?.gstin;
    if (typeof gstin !== 'string' || !/^[0-9]{2}[A-Z0-9]{13}$/.test(gstin)) continue;
    const path = `tenants.agentGroups[${i}].gstin`;
    try {
      await checkRecipientGstin(registry, gstin, path);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      issues.push({ path, message: err.message });
    }
  }
  if (issues.length > 0) throw new WorldValidationError(issues);
}
