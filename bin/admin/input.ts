import { parseRupees, type Minor } from '../../domain/money.ts';
import { BILLING_CYCLES, type BillingCycle } from '../../domain/tenants.ts';
import { flagOf, UsageError } from './command.ts';

/*
 * Turning command-line text into typed values. Only the shape is checked here (is it a
 * number, one of the words offered); the rules (ranges, GSTIN, ids) stay in the domain, which
 * checks them before anything is written.
 */

/**
 * Digits grouped as the tool prints them: Indian (`5,00,000`, `1,23,45,678.50`: threes at the
 * end, twos before) or international (`500,000`). Only whole groups in those places pass, so a
 * slip such as `5,0000` is refused rather than read as another amount. An optional `₹` leads.
 */
const GROUPED = /^-?(?:\d{1,2}(?:,\d{2})*,\d{3}|\d{1,3}(?:,\d{3})+)(?:\.\d{1,2})?$/;

/** Rupees as typed (`250000`, `1999.50`, `2,50,000`, `₹2,50,000.00`) → paise. The sign is left for the domain to judge. */
export function rupeesOption(name: string, text: string): Minor {
  const bare = text.trim().replace(/^(-?)₹\s*/, '$1');
  const paise = parseRupees(GROUPED.test(bare) ? bare.replaceAll(',', '') : bare);
  if (paise === undefined) {
    throw new UsageError(
      `${flagOf(name)} must be an amount in rupees with at most two decimals, such as 250000, 2,50,000 or 1999.50 (got '${text}').`,
      flagOf(name),
    );
  }
  return paise;
}

export function integerOption(name: string, text: string): number {
  if (!/^-?[0-9]{1,9}$/.test(text.trim())) throw new UsageError(`${flagOf(name)} must be a whole number (got '${text}').`, flagOf(name));
  return Number(text.trim());
}

const DURATION_UNITS = { s: 1_000, m: 60_000, h: 3_600_000 } as const;
/** The longest wait a duration may ask for: a day, past any run's last redelivery. */
const LONGEST_MS = 24 * 3_600_000;

/** A wait as typed (`90s`, `15m`, `2h`) → milliseconds; the unit is required, so `--timeout 30` is not guessed to be seconds or minutes. */
export function durationOption(name: string, text: string): number {
  const m = /^(\d{1,6})\s*([smh])$/.exec(text.trim().toLowerCase());
  const ms = m ? Number(m[1]) * DURATION_UNITS[m[2] as keyof typeof DURATION_UNITS] : undefined;
  if (ms === undefined || ms === 0 || ms > LONGEST_MS)
    throw new UsageError(`${flagOf(name)} must be a duration from 1s to 24h with its unit, such as 90s, 15m or 2h (got '${text}').`, flagOf(name));
  return ms;
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
