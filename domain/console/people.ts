/**
 * People of the console (docs/console.md): a partner's team, each person on one account (an
 * agent group: the unit with a credit limit, invoices and a statement) with one role, and our
 * own operators. People sign in as themselves; API keys stay for machines.
 */
export const PARTNER_ROLES = ['admin', 'finance', 'developer', 'viewer'] as const;
export const OPERATOR_ROLES = ['operator', 'finance-operator'] as const;
export type PartnerRole = (typeof PARTNER_ROLES)[number];
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export type Access =
  | { readonly kind: 'partner'; readonly agentGroupId: string; readonly partnerId: string; readonly role: PartnerRole }
  | { readonly kind: 'operator'; readonly role: OperatorRole };

export interface Person {
  readonly personId: string;
  /** Lower-cased; one person per address on a stage. */
  readonly email: string;
  readonly access: Access;
  /** Who invited them: `person:<id>`, or the admin tool's operator. */
  readonly invitedBy: string;
  readonly createdAt: string;
  /** Sessions begun before this instant are refused ("sign out everywhere"); null until first used. */
  readonly sessionsValidAfter: string | null;
}

/** What a person can open. A partner's role decides which screens of their own account they see. */
export type Capability =
  | 'home'
  | 'bookings'
  | 'invoices'
  | 'statement'
  | 'ledger'
  | 'audit'
  | 'webhooks'
  | 'keys'
  | 'partner-keys'
  | 'partner-audit'
  | 'team'
  | 'contacts'
  | 'groups'
  | 'hold'
  | 'limit'
  | 'partners'
  | 'payments'
  | 'record-payment'
  | 'billing'
  | 'run-billing'
  | 'group-invoices'
  | 'correct-invoices'
  | 'audit-search'
  | 'test-clocks'
  | 'sandbox-header'
  | 'distribution'
  | 'gateway-payments'
  | 'create-partner'
  | 'create-group'
  | 'terms'
  | 'channex'
  | 'reconcile-payments';

const PARTNER_CAN: Readonly<Record<PartnerRole, readonly Capability[]>> = {
  admin: [
    'home',
    'bookings',
    'invoices',
    'statement',
    'ledger',
    'audit',
    'partner-audit',
    'webhooks',
    'keys',
    'partner-keys',
    'test-clocks',
    'sandbox-header',
    'team',
    'contacts',
  ],
  finance: ['home', 'bookings', 'invoices', 'statement', 'ledger', 'audit', 'partner-audit', 'contacts'],
  developer: ['home', 'bookings', 'audit', 'partner-audit', 'webhooks', 'keys', 'partner-keys', 'test-clocks', 'sandbox-header'],
  viewer: ['home', 'bookings', 'invoices', 'statement', 'ledger', 'audit', 'partner-audit'],
};

const OPERATOR_CAN: Readonly<Record<OperatorRole, readonly Capability[]>> = {
  operator: [
    'groups',
    'hold',
    'distribution',
    'partners',
    'payments',
    'gateway-payments',
    'create-partner',
    'channex',
    'billing',
    'group-invoices',
    'audit-search',
  ],
  'finance-operator': [
    'groups',
    'hold',
    'distribution',
    'limit',
    'partners',
    'payments',
    'record-payment',
    'gateway-payments',
    'reconcile-payments',
    'create-partner',
    'create-group',
    'terms',
    'channex',
    'billing',
    'run-billing',
    'group-invoices',
    'correct-invoices',
    'audit-search',
  ],
};

export function can(access: Access, capability: Capability): boolean {
  return (access.kind === 'partner' ? PARTNER_CAN[access.role] : OPERATOR_CAN[access.role]).includes(capability);
}

/** A simple, strict address check: one @, no spaces, a dot in the domain. The link is what proves it. */
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}\.[^\s@]{2,}$/;

export const normalEmail = (email: string): string => email.trim().toLowerCase();
export const isEmail = (email: string): boolean => email.length <= 254 && EMAIL.test(email);

/**
 * The audit trail's actor for a person's changes: their id, not their address. The trail is
 * hashed and never rewritten, so it holds no personal data; the id finds the person.
 */
export const personActor = (p: Pick<Person, 'personId'>): string => `person:${p.personId}`;

/** The audit trail's account of a person: their group, or stage-wide for operators. */
export const personAccount = (p: Pick<Person, 'access'>): string | null => (p.access.kind === 'partner' ? p.access.agentGroupId : null);
