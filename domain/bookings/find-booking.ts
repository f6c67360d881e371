import { NotFoundError } from '../errors.ts';
import type { BookingStore } from '../ports/booking-store.ts';
import type { GuestDataStore } from '../ports/guest-data.ts';
import type { TenantDirectory } from '../ports/tenant-directory.ts';
import type { Booking } from './booking.ts';

export interface FindBookingDeps {
  readonly bookings: Pick<BookingStore, 'get' | 'findClaim'>;
  readonly guestData: Pick<GuestDataStore, 'locate'>;
  readonly tenants: Pick<TenantDirectory, 'listAgentGroups'>;
}

/** What an operator may give for a booking, as the refusal names it; `groupGiven` says how the operator names a group where they are (the admin tool's `--group`). */
export const bookingIdsTaken = (groupGiven = 'with --group'): string =>
  `its booking id (SIM-…), booking code (PB-…) or, ${groupGiven}, the partner's externalBookingId`;

/**
 * A booking by any id people see, for an operator: the property-system booking id (`SIM-…`),
 * the booking code (`PB-…`, any case), the internal bookingRef and, within a group, the
 * partner's externalBookingId (unique per group only, so never looked for across groups).
 * Without a group every group is searched. An id that is none of these is "no such booking",
 * naming the ids taken (and how a group is given there: `groupGiven`); another group's booking, with a group given, is not found either.
 */
export async function findBookingForOperator(deps: FindBookingDeps, id: string, agentGroupId?: string, groupGiven?: string): Promise<Booking> {
  const groups = agentGroupId === undefined ? (await deps.tenants.listAgentGroups()).map((g) => g.agentGroupId) : [agentGroupId];
  const located = await deps.guestData.locate(id, groups);
  if (located) return located;
  const claim = agentGroupId === undefined ? undefined : await deps.bookings.findClaim(agentGroupId, id);
  const claimed = claim && (await deps.bookings.get(agentGroupId!, claim.bookingRef));
  if (claimed) return claimed;
  throw new NotFoundError(
    `No such booking '${id}'${agentGroupId === undefined ? '' : ` in agent group '${agentGroupId}'`}: give ${bookingIdsTaken(groupGiven)}: booking`,
  );
}
