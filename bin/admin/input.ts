import { parseRupees, type Minor } from '../../domain/money.ts';
import { BILLING_CYCLES, type BillingCycle } from '../../domain/tenants.ts';
import { flagOf, UsageError } from './command.ts';

/*
 * Turning command-line text into typed values. Only the shape is checked here (is it a
 * number, one of the words offered); the rules (ranges, GSTIN, ids) stay in the domain, which
 * checks them before anything is written.
 */

/** Rupees as typed (`250000`, `1999.50`) → paise. The sign is left for the domain to judge. */
export function rupeesOption(name: string, text: string): Minor {
  const paise = parseRupees(text);
  if (paise === undefined) throw new UsageError(`${flagOf(name)} must be an amount in rupees with at most two decimals, such as 250000 or 1999.50 (got '${text}').`, flagOf(name));
  return paise;
}

export function integerOption(name: string, text: string): number {
  if (!/^-?[0-9]{1,9}$/.test(text.trim())) throw new UsageError(`${flagOf(name)} must be a whole number (got '${text}').`, flagOf(name));
  return Number(text.trim());
}

function choice<T extends string>(name: string, text: string, choices: readonly T[]): T {
  const found = choices.find((c) => c.toLowerCase() === text.trim().toLowerCase());
  if (!found) throw new UsageError(`${flagOf(name)} must be one of ${choices.join(', ')} (got '${text}').`, flagOf(name));
  return found;
}

export const billingCycleOption = (name: string, text: string): BillingCycle => choice(name, text, BILLING_CYCLES);

export const DISTRIBUTION_CHOICES = ['enabled', 'disabled'] as const;
export const distributionOption = (name: string, text: string): boolean => choice(name, text, DISTRIBUTION_CHOICES) === 'enabled';

export const booleanOption = (name: string, text: string): boolean => choice(name, text, ['true', 'false'] as const) === 'true';

/** The word that clears an optional field on update (`--gstin none`). */
export const CLEAR = 'none';

/** GSTINs are printed in capitals on every certificate; operators often type them in lower case. */
export const gstinOption = (text: string): string => text.trim().toUpperCase();

export const textOption = (text: string | undefined): string | undefined => (text === undefined ? undefined : text.trim());
