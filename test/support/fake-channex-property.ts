import type { ChangeBody } from './fake-channex.ts';

/**
 * A Channex property's state as the fake keeps it, and the `changes` Channex generates from it
 * (docs.channex.io, "For OTA → Open Channel API"; copy in github.com/gungcahyadipp/channex-open-channel,
 * docs_channex.md). What the page says, and what the fake does with it:
 *
 * - "Mapping details endpoint": the user maps Channex's rooms and rates onto the room types and
 *   rate plans our `mapping_details/` lists; a mapping, once made, stays until the user changes it
 *   (so a room we stop listing is still mapped: its changes arrive for an id we no longer have).
 * - `sell_mode`: "If rate plan is set as per_room Channex.io will provide updates only for
 *   max_persons occupancy. If rate plan is set as per_person channex.io will provide updates for
 *   each mapped occupancy (from 1 to max_persons)."
 * - `read_only`: "we will allow user to map this rate plan but not provide updates for this rate plan".
 * - "Changes API": "Each time Channex catches any changes at the property state associated with Rate
 *   Plans or Room Types mapped to your system, we will generate a changes message": one notification
 *   per change of the state (one operator action), carrying the changes it made.
 * - "Changes Notification": availability is the room type's (`availability_changes`, the count of
 *   available rooms, which Channex holds up to its own count of rooms, not ours); prices and
 *   restrictions are the rate plan's (`restriction_changes`). Each change covers `date_from`..`date_to`:
 *   the fake sends one change per run of consecutive dates with equal values. The page's examples
 *   carry every restriction field with the rates, so a rate plan's change carries its whole state
 *   for those dates; the availability example carries a `rate_plan_id` although availability is
 *   the room's, so the fake names the room's first mapped rate plan there.
 * - Rates are decimal strings with `currency` (the rate plan's) and `fraction_size` ("Prices (rates)").
 */

export interface MappedRatePlan {
  readonly id: string;
  readonly sellMode: 'per_room' | 'per_person';
  readonly maxPersons: number;
  readonly currency: string;
  readonly readOnly: boolean;
}

export interface MappedRoom {
  readonly id: string;
  /** Channex's own count of rooms for this room type (availability is held up to it). */
  readonly countOfRooms: number;
  readonly ratePlans: readonly MappedRatePlan[];
}

export interface PlanDay {
  /** Decimal strings with the currency's fraction digits, per occupancy 1..max_persons. */
  rates: Record<number, string>;
  stop_sell: boolean;
  closed_to_arrival: boolean;
  closed_to_departure: boolean;
  min_stay_arrival: number;
  min_stay_through: number;
  /** 0 = no maximum ("Changes Notification"). */
  max_stay: number;
}

export type PlanUpdate = Partial<Omit<PlanDay, 'rates'>> & { readonly rates?: Readonly<Record<number, string>> };

/** ISO 4217 minor units of the currencies a test property may use. */
const FRACTION_SIZE: Readonly<Record<string, number>> = { INR: 2, GBP: 2, USD: 2, EUR: 2, JPY: 0 };

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
function datesOf(from: string, to: string): string[] {
  if (!(from <= to)) throw new Error(`fake Channex: ${from}..${to} is not a range`);
  const out: string[] = [];
  for (let d = from; d <= to; d = nextDay(d)) out.push(d);
  return out;
}

/** Runs of consecutive dates with equal values, as date_from..date_to ranges. */
function runs<T>(dates: readonly string[], valueAt: (date: string) => T): { from: string; to: string; value: T }[] {
  const out: { from: string; to: string; value: T }[] = [];
  for (const date of dates) {
    const value = valueAt(date);
    const last = out.at(-1);
    if (last && nextDay(last.to) === date && JSON.stringify(last.value) === JSON.stringify(value)) last.to = date;
    else out.push({ from: date, to: date, value });
  }
  return out;
}

export class ChannexProperty {
  private readonly availability = new Map<string, number>();
  private readonly planDays = new Map<string, PlanDay>();

  /**
   * `window` is the dates the property holds ARI for; `initial` gives each mapped plan's first state
   * (a property's rate plans carry rates from the start: Channex asks for them when a rate plan is made).
   */
  constructor(
    readonly hotelCode: string,
    private readonly rooms: readonly MappedRoom[],
    private readonly window: { readonly from: string; readonly to: string },
    initial: (room: MappedRoom, plan: MappedRatePlan) => PlanDay,
  ) {
    for (const room of rooms) {
      for (const date of datesOf(window.from, window.to)) {
        this.availability.set(`${room.id}|${date}`, room.countOfRooms);
        for (const plan of room.ratePlans) this.planDays.set(`${room.id}|${plan.id}|${date}`, structuredClone(initial(room, plan)));
      }
    }
  }

  private room(roomId: string): MappedRoom {
    const room = this.rooms.find((r) => r.id === roomId);
    if (!room) throw new Error(`fake Channex: room ${roomId} is not mapped for ${this.hotelCode}`);
    return room;
  }

  private dates(from: string, to: string): string[] {
    if (from < this.window.from || to > this.window.to) throw new Error(`fake Channex: ${from}..${to} is outside the property's window`);
    return datesOf(from, to);
  }

  /** The operator sets a room type's availability; Channex holds it between 0 and its count of rooms. */
  setAvailability(roomId: string, from: string, to: string, availability: number): ChangeBody[] {
    const room = this.room(roomId);
    if (!Number.isInteger(availability) || availability < 0 || availability > room.countOfRooms)
      throw new Error(`fake Channex: availability ${availability} is outside 0..${room.countOfRooms} for ${roomId}`);
    const dates = this.dates(from, to);
    for (const d of dates) this.availability.set(`${roomId}|${d}`, availability);
    return this.availabilityChanges(room, dates);
  }

  /** The operator changes a rate plan's prices or restrictions; nothing is sent for a read_only plan. */
  updateRatePlan(roomId: string, planId: string, from: string, to: string, update: PlanUpdate): ChangeBody[] {
    const room = this.room(roomId);
    const plan = room.ratePlans.find((p) => p.id === planId);
    if (!plan) throw new Error(`fake Channex: rate plan ${planId} is not mapped on ${roomId}`);
    const digits = FRACTION_SIZE[plan.currency] ?? 2;
    for (const [occupancy, rate] of Object.entries(update.rates ?? {})) {
      const o = Number(occupancy);
      if (!Number.isInteger(o) || o < 1 || o > plan.maxPersons) throw new Error(`fake Channex: occupancy ${occupancy} is outside 1..${plan.maxPersons}`);
      if (!new RegExp(`^\\d+${digits > 0 ? `\\.\\d{${digits}}` : ''}$`).test(rate))
        throw new Error(`fake Channex: rate ${rate} is not ${plan.currency} with ${digits} decimals`);
    }
    const dates = this.dates(from, to);
    const { rates, ...restrictions } = update;
    for (const d of dates) {
      const day = this.planDays.get(`${roomId}|${planId}|${d}`)!;
      Object.assign(day, restrictions);
      Object.assign(day.rates, rates);
    }
    return plan.readOnly ? [] : this.planChanges(room, plan, dates);
  }

  /** The whole state over the window, as a full sync streams it ("Request Full Sync"). */
  fullState(): ChangeBody[] {
    const dates = datesOf(this.window.from, this.window.to);
    return this.rooms.flatMap((room) => [
      ...this.availabilityChanges(room, dates),
      ...room.ratePlans.filter((p) => !p.readOnly).flatMap((plan) => this.planChanges(room, plan, dates)),
    ]);
  }

  private availabilityChanges(room: MappedRoom, dates: readonly string[]): ChangeBody[] {
    return runs(dates, (d) => this.availability.get(`${room.id}|${d}`)!).map(({ from, to, value }) => ({
      type: 'availability_changes',
      attributes: { room_type_id: room.id, rate_plan_id: room.ratePlans[0]?.id ?? null, date_from: from, date_to: to, availability: value },
    }));
  }

  private planChanges(room: MappedRoom, plan: MappedRatePlan, dates: readonly string[]): ChangeBody[] {
    const fraction_size = FRACTION_SIZE[plan.currency] ?? 2;
    // per_person: every occupancy 1..max_persons, in the page's order (highest first); per_room: max_persons only.
    const occupancies = plan.sellMode === 'per_room' ? [plan.maxPersons] : Array.from({ length: plan.maxPersons }, (_, i) => plan.maxPersons - i);
    return runs(dates, (d) => this.planDays.get(`${room.id}|${plan.id}|${d}`)!).map(({ from, to, value }) => {
      const { rates, ...restrictions } = value;
      return {
        type: 'restriction_changes',
        attributes: {
          rate_plan_id: plan.id,
          room_type_id: room.id,
          date_from: from,
          date_to: to,
          rates: occupancies.map((occupancy) => ({ rate: rates[occupancy]!, currency: plan.currency, fraction_size, occupancy })),
          ...restrictions,
        },
      };
    });
  }
}
