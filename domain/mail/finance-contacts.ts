import type { AuditDraft, AuditFields, AuditOrigin } from '../audit/audit-event.ts';
import { ConflictError, NotFoundError, ValidationError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { FinanceContactStore } from '../ports/finance-contacts.ts';
import type { IdGenerator } from '../ports/ids.ts';
import type { TenantDirectory } from '../ports/tenant-directory.ts';

/**
 * Finance contacts (docs/e-mail.md "Finance contacts"): the people of an agent group who receive
 * its billing documents by e-mail. Invoices and credit notes are statutory documents: every
 * contact receives them and none can opt out. Receipts, reminders and statements are each
 * contact's choice.
 */
export const STATUTORY_DOCUMENTS = ['INVOICES', 'CREDIT_NOTES'] as const;
export const OPTIONAL_DOCUMENTS = ['RECEIPTS', 'REMINDERS', 'STATEMENTS'] as const;
export type OptionalDocument = (typeof OPTIONAL_DOCUMENTS)[number];
export type MailDocument = (typeof STATUTORY_DOCUMENTS)[number] | OptionalDocument;

/** Contacts per group: a finance team, not a mailing list. */
export const MAX_FINANCE_CONTACTS = 10;

export interface FinanceContact {
  readonly contactId: string;
  /** Lower-cased: one address is one contact. */
  readonly email: string;
  readonly name: string | null;
  /** The optional documents this contact receives, in OPTIONAL_DOCUMENTS order. */
  readonly documents: readonly OptionalDocument[];
  /** When SES reported a hard bounce or a complaint for the address: nothing is sent to it until the address is changed. */
  readonly bouncedAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface GroupMailSettings {
  readonly agentGroupId: string;
  readonly contacts: readonly FinanceContact[];
  /** An operator's pause: no e-mail to this group's contacts until resumed. */
  readonly paused: boolean;
  /** 1 for the first stored record; each change adds one (optimistic concurrency). */
  readonly version: number;
}

export interface FinanceContactDeps {
  readonly financeContacts: FinanceContactStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

export interface FinanceContactView {
  readonly id: string;
  readonly email: string;
  readonly name: string | null;
  /** Every document the contact receives: the statutory ones first, then its choices. */
  readonly documents: readonly MailDocument[];
  readonly bounced: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const viewOf = (c: FinanceContact): FinanceContactView => ({
  id: c.contactId,
  email: c.email,
  name: c.name,
  documents: [...STATUTORY_DOCUMENTS, ...c.documents],
  bounced: c.bouncedAt !== null,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

/** The fields a caller sets; on a change `undefined` keeps the stored value. */
export interface ContactFields {
  readonly email?: string;
  readonly name?: string | null;
  readonly documents?: readonly string[];
}

/** RFC 5321's 254-character path, one `@`, a dotted domain; no spaces or angle brackets (the address goes into a header as is). */
const EMAIL = /^[^\s@<>,;"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

function checkedEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (e.length > 254 || !EMAIL.test(e)) throw new ValidationError('email', 'email must be one e-mail address (name@example.in), at most 254 characters.');
  return e;
}

function checkedName(name: string | null): string | null {
  if (name === null) return null;
  const n = name.trim();
  if (n.length === 0 || n.length > 100 || /[\r\n<>]/.test(n))
    throw new ValidationError('name', 'name must be 1–100 characters without line breaks or angle brackets, or null.');
  return n;
}

function checkedDocuments(documents: readonly string[]): OptionalDocument[] {
  const statutory = documents.find((d) => (STATUTORY_DOCUMENTS as readonly string[]).includes(d));
  if (statutory)
    throw new ValidationError(
      'documents',
      `${statutory} is a statutory document every contact receives; list only the optional ones (${OPTIONAL_DOCUMENTS.join(', ')}).`,
    );
  const unknown = documents.find((d) => !(OPTIONAL_DOCUMENTS as readonly string[]).includes(d));
  if (unknown !== undefined) throw new ValidationError('documents', `documents may name only ${OPTIONAL_DOCUMENTS.join(', ')}; ${unknown} is not one.`);
  return OPTIONAL_DOCUMENTS.filter((d) => documents.includes(d));
}

/** A contact as the audit trail records it: its documents and state, never the address or name (a person's data). */
const contactFigures = (c: FinanceContact): AuditFields => ({ documents: [...c.documents], bounced: c.bouncedAt !== null });

/** The audit of a change that writes nothing: never recorded (`change` stops before the store). */
const NO_AUDIT = { origin: { actor: '', actorKind: 'system', requestId: '' }, action: '', target: '', account: null, before: null, after: null } as const;

const empty = (agentGroupId: string): GroupMailSettings => ({ agentGroupId, contacts: [], paused: false, version: 0 });

/**
 * Tries a change against the latest record; a change that lost a race is computed again on what
 * won. Each round lands one of the racing changes, so a group's whole team adding themselves at
 * once (up to the limit, and one more to be refused) all get their answer.
 */
const ATTEMPTS = MAX_FINANCE_CONTACTS + 2;

async function change<T>(
  deps: FinanceContactDeps,
  agentGroupId: string,
  apply: (current: GroupMailSettings, at: string) => { next: GroupMailSettings; audit: Omit<AuditDraft, 'id' | 'at'>; result: T },
): Promise<T> {
  for (let i = 0; i < ATTEMPTS; i++) {
    const current = (await deps.financeContacts.get(agentGroupId)) ?? empty(agentGroupId);
    const at = deps.clock.now().toISOString();
    const { next, audit, result } = apply(current, at);
    // A change that finds nothing to do (a repeated SES event) writes nothing and audits nothing.
    if (next === current) return result;
    if (await deps.financeContacts.replace({ ...next, version: current.version + 1 }, current.version, { ...audit, id: deps.ids.uuid(), at })) return result;
  }
  throw new ConflictError('CONFLICT', "The group's finance contacts were changed by other requests meanwhile; read them and retry.");
}

const contactAudit = (origin: AuditOrigin, agentGroupId: string, action: string, contactId: string, before: AuditFields | null, after: AuditFields | null) => ({
  origin,
  action,
  target: `finance-contact:${contactId}`,
  account: agentGroupId,
  before,
  after,
});

export async function listContacts(deps: Pick<FinanceContactDeps, 'financeContacts'>, agentGroupId: string): Promise<FinanceContactView[]> {
  return ((await deps.financeContacts.get(agentGroupId))?.contacts ?? []).map(viewOf);
}

export async function addContact(
  deps: FinanceContactDeps,
  agentGroupId: string,
  fields: { email: string; name?: string | null; documents?: readonly string[] },
  origin: AuditOrigin,
): Promise<FinanceContactView> {
  const email = checkedEmail(fields.email);
  const name = checkedName(fields.name ?? null);
  const documents = checkedDocuments(fields.documents ?? OPTIONAL_DOCUMENTS);
  return change(deps, agentGroupId, (current, at) => {
    if (current.contacts.some((c) => c.email === email)) throw new ConflictError('CONFLICT', 'This address is already a finance contact of the group.');
    if (current.contacts.length >= MAX_FINANCE_CONTACTS)
      throw new ConflictError('CONFLICT', `A group may have at most ${MAX_FINANCE_CONTACTS} finance contacts; remove one first.`);
    const contact: FinanceContact = { contactId: deps.ids.uuid(), email, name, documents, bouncedAt: null, createdAt: at, updatedAt: at };
    return {
      next: { ...current, contacts: [...current.contacts, contact] },
      audit: contactAudit(origin, agentGroupId, 'group.finance-contact-added', contact.contactId, null, contactFigures(contact)),
      result: viewOf(contact),
    };
  });
}

export async function updateContact(
  deps: FinanceContactDeps,
  agentGroupId: string,
  contactId: string,
  fields: ContactFields,
  origin: AuditOrigin,
): Promise<FinanceContactView> {
  const email = fields.email === undefined ? undefined : checkedEmail(fields.email);
  const name = fields.name === undefined ? undefined : checkedName(fields.name);
  const documents = fields.documents === undefined ? undefined : checkedDocuments(fields.documents);
  return change(deps, agentGroupId, (current, at) => {
    const found = current.contacts.find((c) => c.contactId === contactId);
    if (!found) throw new NotFoundError('Finance contact');
    if (email !== undefined && email !== found.email && current.contacts.some((c) => c.email === email))
      throw new ConflictError('CONFLICT', 'This address is already a finance contact of the group.');
    const updated: FinanceContact = {
      ...found,
      ...(email !== undefined ? { email } : {}),
      ...(name !== undefined ? { name } : {}),
      ...(documents !== undefined ? { documents } : {}),
      // A new address is a new mailbox: the old one's bounce says nothing about it.
      bouncedAt: email !== undefined && email !== found.email ? null : found.bouncedAt,
      updatedAt: at,
    };
    return {
      next: { ...current, contacts: current.contacts.map((c) => (c.contactId === contactId ? updated : c)) },
      audit: contactAudit(origin, agentGroupId, 'group.finance-contact-changed', contactId, contactFigures(found), {
        ...contactFigures(updated),
        // The address itself is a person's data and stays out of the trail; that it changed is recorded.
        ...(updated.email !== found.email ? { addressChanged: true } : {}),
      }),
      result: viewOf(updated),
    };
  });
}

export async function removeContact(deps: FinanceContactDeps, agentGroupId: string, contactId: string, origin: AuditOrigin): Promise<void> {
  await change(deps, agentGroupId, (current) => {
    const found = current.contacts.find((c) => c.contactId === contactId);
    if (!found) throw new NotFoundError('Finance contact');
    return {
      next: { ...current, contacts: current.contacts.filter((c) => c.contactId !== contactId) },
      audit: contactAudit(origin, agentGroupId, 'group.finance-contact-removed', contactId, contactFigures(found), null),
      result: undefined,
    };
  });
}

/** An operator's pause of every e-mail to a group's contacts, or its end; recorded even when it changes nothing, as the operator's act. */
export async function setMailPaused(deps: FinanceContactDeps, agentGroupId: string, paused: boolean, origin: AuditOrigin): Promise<GroupMailSettings> {
  return change(deps, agentGroupId, (current) => {
    const next = { ...current, paused };
    return {
      next,
      audit: {
        origin,
        action: paused ? 'group.mail-paused' : 'group.mail-resumed',
        target: `group:${agentGroupId}`,
        account: agentGroupId,
        before: { paused: current.paused },
        after: { paused },
      },
      result: { ...next, version: current.version + 1 },
    };
  });
}

/** Why SES stopped mail to an address: a permanent bounce, or a recipient who marked our mail as spam. */
export type AddressProblem = 'BOUNCED' | 'COMPLAINED';

/**
 * Flags the contacts at `email` in every group that has one (docs/e-mail.md "Bounces and
 * complaints"): from then on they receive nothing, statutory documents included, until the address
 * changes or an operator clears the flag. A contact already flagged is left as it is (SES may
 * report an event more than once), so a repeated event writes and audits nothing. Returns the
 * number of contacts flagged now.
 */
export async function flagAddress(
  deps: FinanceContactDeps,
  problem: { email: string; kind: AddressProblem; at: string; diagnostic: string | null },
  origin: AuditOrigin,
): Promise<number> {
  const email = problem.email.trim().toLowerCase();
  let flagged = 0;
  for (const agentGroupId of await deps.financeContacts.groupsWithAddress(email)) {
    const changed = await change(deps, agentGroupId, (current, at) => {
      const found = current.contacts.find((c) => c.email === email);
      if (!found || found.bouncedAt !== null) return { next: current, audit: NO_AUDIT, result: false };
      const updated: FinanceContact = { ...found, bouncedAt: problem.at, updatedAt: at };
      return {
        next: { ...current, contacts: current.contacts.map((c) => (c.contactId === found.contactId ? updated : c)) },
        audit: contactAudit(
          origin,
          agentGroupId,
          problem.kind === 'BOUNCED' ? 'group.finance-contact-bounced' : 'group.finance-contact-complained',
          found.contactId,
          contactFigures(found),
          {
            ...contactFigures(updated),
            reportedAt: problem.at,
            // The receiving server's words (e.g. "smtp; 550 5.1.1 user unknown"): what the operator fixes.
            diagnostic: problem.diagnostic,
          },
        ),
        result: true,
      };
    });
    if (changed) flagged++;
  }
  return flagged;
}

/** An operator's clearing of a contact's bounce flag once the address is known to work again; a contact not flagged is left as it is. */
export async function clearAddressFlag(deps: FinanceContactDeps, agentGroupId: string, contactId: string, origin: AuditOrigin): Promise<FinanceContactView> {
  return change(deps, agentGroupId, (current, at) => {
    const found = current.contacts.find((c) => c.contactId === contactId);
    if (!found) throw new NotFoundError('Finance contact');
    if (found.bouncedAt === null) return { next: current, audit: NO_AUDIT, result: viewOf(found) };
    const updated: FinanceContact = { ...found, bouncedAt: null, updatedAt: at };
    return {
      next: { ...current, contacts: current.contacts.map((c) => (c.contactId === contactId ? updated : c)) },
      audit: contactAudit(origin, agentGroupId, 'group.finance-contact-unflagged', contactId, contactFigures(found), contactFigures(updated)),
      result: viewOf(updated),
    };
  });
}

/** The group must exist (and be the caller's, which the principal already says) before its contacts are changed by an operator. */
/**
 * Fills in the address lookup (which groups have a contact at an address, what a bounce is matched
 * by) for contacts stored before it existed: every group's, or one group's. Idempotent: a second run
 * writes nothing. Not audited: no contact, setting or figure changes.
 */
export async function indexContactAddresses(
  deps: { readonly financeContacts: FinanceContactStore; readonly tenants: Pick<TenantDirectory, 'getAgentGroup' | 'listAgentGroups'> },
  only?: string,
): Promise<{ readonly groups: number; readonly contacts: number; readonly written: number }> {
  if (only) await requireGroup(deps.tenants, only);
  const groups = only ? [only] : (await deps.tenants.listAgentGroups()).map((g) => g.agentGroupId);
  let contacts = 0;
  let written = 0;
  for (const g of groups) {
    const settings = await deps.financeContacts.get(g);
    if (!settings || settings.contacts.length === 0) continue;
    contacts += settings.contacts.length;
    written += await deps.financeContacts.indexAddresses(settings);
  }
  return { groups: groups.length, contacts, written };
}

export async function requireGroup(tenants: Pick<TenantDirectory, 'getAgentGroup'>, agentGroupId: string): Promise<void> {
  if (!(await tenants.getAgentGroup(agentGroupId))) throw new NotFoundError('Agent group');
}

/** The contacts that receive `document` now: not paused, not bounced, and (for an optional document) chosen by the contact. */
export function recipientsOf(settings: GroupMailSettings | undefined, document: MailDocument): FinanceContact[] {
  if (!settings || settings.paused) return [];
  return settings.contacts.filter(
    (c) => c.bouncedAt === null && ((STATUTORY_DOCUMENTS as readonly string[]).includes(document) || c.documents.includes(document as OptionalDocument)),
  );
}
