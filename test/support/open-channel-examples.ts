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

/**
 * "Push Booking API": the page's booking message as printed, placeholders filled (`provider_code`
 * "OpenChannel" as the page says to use under test, our hotel, room type and rate plan codes). The
 * page prints the room guest as `{"name": "John", surname: "Doe"}`, which is not JSON; the key is
 * quoted here, the values are as printed.
 */
export function pushBookingExample(hotelCode: string, roomTypeCode: string, ratePlanCode: string, reservationId: string): { booking: Record<string, any> } {
  return {
    booking: {
      status: 'new',
      provider_code: 'OpenChannel',
      hotel_code: hotelCode,
      ota_name: 'OpenChannel',
      reservation_id: reservationId,
      arrival_date: '2019-05-09',
      departure_date: '2019-05-10',
      arrival_hour: '10:00',
      currency: 'GBP',
      payment_collect: 'property',
      payment_type: 'credit_card',
      customer: {
        name: 'User',
        surname: 'Channex',
        country: 'EN',
        city: 'London',
        address: '101 Finsbury Pavement',
        zip: 'ec2a 1rs',
        mail: 'support@channex.io',
        phone: '+44 444 4444 44 44',
        language: 'EB',
        company: { title: 'Channex.io', number: 'TAX NUMBER', number_type: 'VAT' },
        meta: {},
      },
      notes: 'Guest notes or special request',
      guarantee: {
        expiration_date: '10/2020',
        cvv: '123',
        cardholder_name: 'Channex User',
        card_type: 'visa',
        card_number: '4111111111111111',
        meta: {
          virtual_card_currency_code: 'GBP',
          virtual_card_current_balance: 10000,
          virtual_card_decimal_places: 2,
          virtual_card_effective_date: '2020-02-02',
          virtual_card_expiration_date: '2021-02-02',
        },
      },
      rooms: [
        {
          index: 0,
          room_type_code: roomTypeCode,
          occupancy: { adults: 1, children: 0, infants: 0 },
          guests: [{ name: 'John', surname: 'Doe' }],
          days: [{ date: '2019-05-09', price: '100.00', rate_plan_code: ratePlanCode }],
          meta: {},
        },
      ],
      services: [
        {
          type: 'Fee',
          total_price: '100.00',
          price_per_unit: '100.00',
          price_mode: 'Per stay',
          persons: 0,
          nights: 0,
          name: 'Cancellation Fee',
          room_index: 0,
          applicable_date: '2019-05-10',
        },
      ],
      deposits: [
        { amount: '100.00', currency: 'GBP', charget_at: '2019-05-05 19:20:32.001023', type: 'credit_card', notes: 'Card ending 1234', provider_meta: null },
      ],
      meta: {},
    },
  };
}
