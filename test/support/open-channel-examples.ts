import type { ChangeBody } from './fake-channex.ts';

/**
 * The Open Channel page's own examples (docs.channex.io, "For OTA → Open Channel API"; copy in
 * github.com/gungcahyadipp/channex-open-channel, docs_channex.md), with only the page's
 * placeholders filled in: `{ROOM_TYPE_ID}`, `{RATE_PLAN_ID}` and the dates (the page's
 * 2020-02-02..04 are in the past, so they move to `from`..`from`+2 keeping the three nights).
 * The page prints them with a trailing comma after `"max_stay": 0`, which is not JSON; the
 * values are as printed.
 */
export function changesApiExample(room: string, ratePlan: string, from: string, to: string): ChangeBody[] {
  return [
    { type: 'availability_changes', attributes: { room_type_id: room, rate_plan_id: ratePlan, date_from: from, date_to: to, availability: 10 } },
    {
      type: 'restriction_changes',
      attributes: {
        rate_plan_id: ratePlan,
        room_type_id: room,
        date_from: from,
        date_to: to,
        rates: [{ rate: '200.00', currency: 'GBP', fraction_size: 2 }],
        stop_sell: true,
        closed_to_arrival: false,
        closed_to_departure: false,
        min_stay_arrival: 1,
        min_stay_through: 1,
        max_stay: 0,
      },
    },
  ];
}

/** "Multi Occupancy example": three occupancies of one per_person rate plan, in the page's order (3, 2, 1). */
export function multiOccupancyExample(room: string, ratePlan: string, from: string, to: string, currency = 'GBP'): ChangeBody[] {
  return [
    {
      type: 'restriction_changes',
      attributes: {
        rate_plan_id: ratePlan,
        room_type_id: room,
        date_from: from,
        date_to: to,
        rates: [
          { rate: '250.00', currency, fraction_size: 2, occupancy: 3 },
          { rate: '200.00', currency, fraction_size: 2, occupancy: 2 },
          { rate: '150.00', currency, fraction_size: 2, occupancy: 1 },
        ],
        stop_sell: true,
        closed_to_arrival: false,
        closed_to_departure: false,
        min_stay_arrival: 1,
        min_stay_through: 1,
        max_stay: 0,
      },
    },
  ];
}

/** "Changes API" → expected response: `{"success": true, "unique_id": KEY}`. */
export const CHANGES_RESPONSE_KEYS = ['success', 'unique_id'] as const;
