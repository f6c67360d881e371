import type { Guest } from './booking.ts';

/** An e-mail as guests are matched on it: trimmed, lower case; empty is none. */
export const normalEmailOf = (email: string | undefined): string | undefined => email?.trim().toLowerCase() || undefined;
const normalEmail = (g: Guest): string | undefined => normalEmailOf(g.email);
/**
 * The full numbers a phone may stand for, digits only, with the country code when given, so
 * "+91 98200 12345" and "9820012345" with countryCode 91 agree. Digits that already begin
 * with the country code are read both ways: "919820012345" may be the full number, but
 * "9123456789" with countryCode 91 is a national number that merely starts with 91.
 */
const phoneReadings = (g: Guest): string[] => {
  const digits = g.phone?.replace(/\D/g, '');
  if (!digits) return [];
  const cc = g.countryCode?.replace(/\D/g, '') ?? '';
  if (!cc) return [digits];
  return digits.startsWith(cc) ? [digits, `${cc}${digits}`] : [`${cc}${digits}`];
};
const normalName = (g: Guest): string => `${g.firstName.trim().toLowerCase()} ${(g.lastName ?? '').trim().toLowerCase()}`;

/**
 * The same person (docs/bookings.md): matched on phone or email. A guest with
 * neither (additional guests need only a first name) can only be matched by name, or an
 * identical replay would add them again every time.
 */
export function sameGuest(a: Guest, b: Guest): boolean {
  const [ea, eb, pa, pb] = [normalEmail(a), normalEmail(b), phoneReadings(a), phoneReadings(b)];
  if ((ea && ea === eb) || pa.some((p) => pb.includes(p))) return true;
  if (!ea && pa.length === 0 && !eb && pb.length === 0) return normalName(a) === normalName(b);
  return false;
}

/**
 * The guests after a replay: everyone already on the booking stays exactly as first
 * submitted; only guests matching none of them are added, after the existing ones.
 */
export function mergeGuests(
  stored: { primaryGuest: Guest; additionalGuests: readonly Guest[] },
  incoming: readonly Guest[],
): { additionalGuests: Guest[]; added: number } {
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
