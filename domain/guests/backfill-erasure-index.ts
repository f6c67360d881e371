import type { BookingReads } from '../ports/booking-reads.ts';
import type { GuestDataStore } from '../ports/guest-data.ts';
import { isGuestDataErased, stayEndedOn } from './guest-erasure.ts';

export interface ErasureIndexBackfillDeps {
  readonly bookingReads: Pick<BookingReads, 'feedPage'>;
  readonly guestData: Pick<GuestDataStore, 'indexErasable'>;
}

export interface ErasureIndexBackfillResult {
  readonly agentGroupId: string;
  /** Bookings of the group read. */
  readonly looked: number;
  /** Settled bookings still holding guest data: the ones the erasure job must find. */
  readonly erasable: number;
  /** Of those, how many this run added to the index (the rest were indexed already, or were written meanwhile, which indexes them). */
  readonly indexed: number;
}

const FEED_PAGE = 100;

/**
 * `guests backfill-index`: puts a group's settled bookings that still hold guest data on the
 * erasure index the daily job reads (docs/personal-data.md). Bookings settled before the
 * index existed carry no index key, so the job would never find them. Idempotent: a booking
 * already indexed (or changed since it was read: its own write indexes it) is left alone, so
 * a run stopped half-way is simply run again.
 */
export async function backfillErasureIndex(deps: ErasureIndexBackfillDeps, agentGroupId: string): Promise<ErasureIndexBackfillResult> {
  let looked = 0;
  let erasable = 0;
  let indexed = 0;
  let after: Parameters<ErasureIndexBackfillDeps['bookingReads']['feedPage']>[1]['after'];
  do {
    const page = await deps.bookingReads.feedPage(agentGroupId, { filter: {}, after, limit: FEED_PAGE });
    for (const b of page.bookings) {
      looked += 1;
      if (b.nextCheckAt !== null || stayEndedOn(b) === null || isGuestDataErased(b)) continue;
      erasable += 1;
      if (await deps.guestData.indexErasable(b)) indexed += 1;
    }
    after = page.resumeAfter ?? undefined;
  } while (after);
  return { agentGroupId, looked, erasable, indexed };
}
