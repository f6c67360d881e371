import type { Guest } from './booking.ts';

const normalEmail = (g: Guest): string | undefined => g.email?.trim().toLowerCase() || undefined;
/** Digits only, with the country code when given, so "+91 98200 12345" and "9820012345" with countryCode 91 agree. */
const normalPhone = (g: Guest): string | undefined => {
  const digits = g.phone?.replace(/\D/g, '');
  if (!digits) return undefined;
  const cc = g.countryCode?.replace(/\D/g, '') ?? '';
  return cc && !digits.startsWith(cc) ? `${cc}${digits}` : digits;
};
const normalName = (g: Guest): string => `${g.firstName.trim().toLowerCase()} ${(g.lastName ?? '').trim().toLowerCase()}`;

/**
 * The same person (SPEC POST /v1/bookings rule 6): matched on phone or email. A guest with
 * neither (additional guests need only a first name) can only be matched by name, or an
 * identical replay would add them again every time.
 */
export function sameGuest(a: Guest, b: Guest): boolean {
  const [ea, eb, pa, pb] = [normalEmail(a), normalEmail(b), normalPhone(a), normalPhone(b)];
  if ((ea && ea === eb) || (pa && pa === pb)) return true;
  if (!ea && !pa && !eb && !pb) return normalName(a) === normalName(b);
  return false;
}

/**
 * The guests after a replay: everyone already on the booking stays exactly as first
 * submitted; only guests matching none of them are added, after the existing ones.
 */
export function mergeGuests(stored: { primaryGuest: Guest; additionalGuests: readonly Guest[] }, incoming: readonly Guest[]): { additionalGuests: Guest[]; added: number } {
  const known: Guest[] = [stored.primaryGuest, ...stored.additionalGuests];
  const additionalGuests = [...stored.additionalGuests];
  let added = 0;
  for (const guest of incoming) {
    if (known.some((k) => sameGuest(k, guest))) continue;
    known.push(guest);
    additionalGuests.push(guest);
    added += 1;
  }
  return { additionalGuests, added };
}
