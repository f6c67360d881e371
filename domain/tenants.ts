import type { Minor } from './money.ts';

/** A company that reads our catalogue through `/api` and receives catalogue webhooks. */
export interface Partner {
  readonly partnerId: string;
  readonly name: string;
  /** The channel whose catalogue and rates this partner reads. */
  readonly channelId: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const BILLING_CYCLES = ['WEEKLY', 'FORTNIGHTLY', 'MONTHLY'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

export interface PostalAddress {
  readonly line1: string;
  readonly line2?: string;
  readonly city: string;
  /** Indian state or union territory name, as it appears on a GST invoice. */
  readonly state: string;
  readonly postalCode: string;
  readonly country: string;
}

/** A team of agents under a partner that books on credit through `/v1`. */
export interface AgentGroup {
  readonly agentGroupId: string;
  readonly partnerId: string;
  readonly name: string;
  readonly channelId: string;
  readonly creditLimit: Minor;
  readonly onHold: boolean;
  readonly distributionEnabled: boolean;
  readonly billingCycle: BillingCycle;
  /** Day the cycle closes on: 1–28 for MONTHLY, 1–7 (Mon–Sun) for WEEKLY and FORTNIGHTLY. */
  readonly billingAnchorDay: number;
  /** Days from an invoice's issue date to its due date (credit terms); absent = DEFAULT_PAYMENT_TERMS_DAYS. */
  readonly paymentTermsDays?: number;
  /**
   * Credit control: an invoice overdue by more than this many days puts the account on hold
   * (new bookings and amendment increases refused) until the overdue invoices are paid;
   * absent = no automatic hold.
   */
  readonly overdueHoldDays?: number | null;
  readonly gstin: string | null;
  readonly legalName: string;
  readonly address: PostalAddress;
  /**
   * Sandbox stages: the group's test clock, written in the same transaction as the clock and
   * removed with it, so a request of a group without one never reads for a clock.
   */
  readonly testClockId?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** GSTIN: 2-digit state code, 10-char PAN, entity digit, 'Z', checksum. */
export const GSTIN_PATTERN = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

/** Credit terms of a group whose record does not set them. */
export const DEFAULT_PAYMENT_TERMS_DAYS = 15;
/** Longest credit terms an operator can give. */
export const MAX_PAYMENT_TERMS_DAYS = 365;

/** Longest overdue tolerance an operator can set. */
export const MAX_OVERDUE_HOLD_DAYS = 365;

export const paymentTermsOf = (g: Pick<AgentGroup, 'paymentTermsDays'>): number => g.paymentTermsDays ?? DEFAULT_PAYMENT_TERMS_DAYS;

export function anchorDayRange(cycle: BillingCycle): readonly [number, number] {
  return cycle === 'MONTHLY' ? [1, 28] : [1, 7];
}
