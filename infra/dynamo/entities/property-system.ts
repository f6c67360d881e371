import { ITEM_EXISTS, ITEM_IS_NEW } from '../items.ts';
import { keys } from '../keys.ts';

/*
 * What the property-system adapters keep on the table (infra/property-system/): the simulator's
 * SimulatedReservation (PK = SIMRES#<bookingRef>) and each SimulatedModification answered beside
 * it; Channex's ChannexBooking (PK = CHANNEX#BOOKING#<bookingRef>: the last body pushed) and each
 * ChannexRevision answered beside it. A change is answered once per key: its answer is stored
 * with the key, so a rerun gets the first answer.
 */

export const simulatedReservationEntity = {
  name: 'SimulatedReservation',
  key: keys.simulatedReservation,
  conditions: {
    /** A racing reserve for the same booking placed it first; its booking id is the one. */
    isNew: ITEM_IS_NEW,
    /** A cancel or an accepted change writes on a reservation that is there, never a half one. */
    exists: ITEM_EXISTS,
    /** A late landing is fixed once (`:none` → null): a racing look keeps the first. */
    notLanded: 'landsAt = :none',
  },
} as const;

export const simulatedModificationEntity = {
  name: 'SimulatedModification',
  key: keys.simulatedModification,
  conditions: { isNew: ITEM_IS_NEW },
} as const;

export const channexBookingEntity = {
  name: 'ChannexBooking',
  key: keys.channexBooking,
  conditions: {
    /** The guest is forgotten only on a booking pushed: erasure never creates one. */
    exists: ITEM_EXISTS,
  },
} as const;

export const channexRevisionEntity = {
  name: 'ChannexRevision',
  key: keys.channexRevision,
  conditions: { isNew: ITEM_IS_NEW },
} as const;
