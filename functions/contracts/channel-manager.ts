import * as v from 'valibot';
import { defineRoute } from '../http/route.ts';
import { ErrorBodySchema } from './common.ts';

/**
 * Channex's Open Channel API, inbound side (docs.channex.io "For OTA → Open Channel API",
 * sections "API Endpoints", "Test Connection endpoint", "Mapping details endpoint",
 * "Changes API"): three endpoints at one base path, names and trailing slashes fixed by
 * Channex, each protected by the `api-key` header. Operator-facing: Channex calls them, not
 * partners.
 */
export const CHANNEX_BASE_PATH = '/channel-manager/channex';
const TAGS = ['Channel manager (operators)'];
const KEY_NOTE =
  'Called by Channex, not by partners. The `api-key` header (Channex also documents `api_key`) must hold one of the stage\'s inbound Channex keys ' +
  '(compared in constant time; two are accepted during a rotation); without it the answer is 401 and nothing is read.';

/** hotel_code is our listing id. */
export const HotelCodeQuerySchema = v.strictObject({
  hotel_code: v.pipe(v.string(), v.minLength(1, 'hotel_code is required'), v.maxLength(128), v.description('Our listing id (the Open Channel\'s "Hotel Code").')),
});

const DateSchema = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date yyyy-mm-dd'));
const IdSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(200));
const Nights = v.pipe(v.number(), v.integer('must be a whole number of nights'), v.minValue(0));

/** "Changes API" → availability_changes. */
const AvailabilityChangeSchema = v.object({
  type: v.literal('availability_changes'),
  attributes: v.object({
    room_type_id: IdSchema,
    rate_plan_id: v.optional(v.nullable(IdSchema)),
    date_from: DateSchema,
    date_to: DateSchema,
    availability: v.pipe(v.number(), v.integer('must be a whole number of units'), v.minValue(0)),
  }),
});

/** "Changes API" → restriction_changes, and "Prices (rates)" for the rates' shape. */
const RestrictionChangeSchema = v.object({
  type: v.literal('restriction_changes'),
  attributes: v.object({
    room_type_id: IdSchema,
    rate_plan_id: IdSchema,
    date_from: DateSchema,
    date_to: DateSchema,
    rates: v.optional(
      v.array(
        v.object({
          rate: v.pipe(v.string(), v.regex(/^\d+(\.\d+)?$/, 'must be a decimal string such as "200.00"')),
          currency: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code'))),
          fraction_size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(4))),
          occupancy: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
        }),
      ),
    ),
    stop_sell: v.optional(v.boolean()),
    closed_to_arrival: v.optional(v.boolean()),
    closed_to_departure: v.optional(v.boolean()),
    min_stay_arrival: v.optional(Nights),
    min_stay_through: v.optional(Nights),
    min_stay: v.optional(Nights),
    max_stay: v.optional(Nights),
  }),
});

/** "Changes API" request body: a list of changes notifications, each with its own request_id. */
export const ChannexChangesSchema = v.object({
  data: v.pipe(
    v.array(
      v.object({
        type: v.literal('changes_notification'),
        attributes: v.object({
          request_id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be a request id (Channex sends a UUID v4)')),
          hotel_code: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
          changes: v.array(v.variant('type', [AvailabilityChangeSchema, RestrictionChangeSchema])),
        }),
      }),
    ),
    v.minLength(1, 'must hold at least one changes_notification'),
  ),
});

const SuccessSchema = v.object({ success: v.literal(true) });

const MappingDetailsSchema = v.object({
  data: v.object({
    type: v.literal('mapping_details'),
    attributes: v.object({
      room_types: v.array(
        v.object({
          id: v.pipe(v.string(), v.description('A property id of the listing.')),
          title: v.string(),
          rate_plans: v.array(
            v.object({
              id: v.pipe(v.string(), v.description('`<propertyId>:<EP|CP|MAP|AP>`: one meal plan of the property.')),
              title: v.string(),
              sell_mode: v.literal('per_person'),
              max_persons: v.pipe(v.number(), v.description("The property's applicableAdult: rates are listed per adult count up to it.")),
              currency: v.literal('INR'),
              read_only: v.boolean(),
            }),
          ),
        }),
      ),
    }),
  }),
});

const ChangesAckSchema = v.object({
  success: v.literal(true),
  unique_id: v.pipe(v.string(), v.description('Our reference for this POST (the same request_ids give the same one), for incident reviews.')),
  warnings: v.optional(
    v.pipe(
      v.array(v.object({ path: v.string(), reason: v.string() })),
      v.description('Dates in the past or beyond the 730-day window: reported here and not applied. Values the catalogue cannot hold are reported on the stored record.'),
    ),
  ),
});

const unauthorized = { description: 'The api-key header is missing or not one of the stage\'s inbound Channex keys.', schema: ErrorBodySchema };

/** A GET Channex makes with `?hotel_code=`: the two read endpoints differ only in what they answer. */
const hotelRead = <S extends typeof SuccessSchema | typeof MappingDetailsSchema>(operationId: string, name: string, summary: string, description: string, answer: string, schema: S) =>
  defineRoute({
    operationId,
    method: 'GET',
    path: `${CHANNEX_BASE_PATH}/${name}/`,
    auth: 'channex',
    summary,
    description: `${KEY_NOTE} ${description}`,
    tags: TAGS,
    query: HotelCodeQuerySchema,
    responses: {
      200: { description: answer, schema },
      400: { description: 'hotel_code is missing.', schema: ErrorBodySchema },
      401: unauthorized,
      404: { description: 'No listing has this id.', schema: ErrorBodySchema },
    },
  });

export const channexTestConnectionRoute = hotelRead(
  'channexTestConnection',
  'test_connection',
  "Channex's connection test for one listing",
  'Answers `{"success": true}` when hotel_code is one of our listings.',
  'Connected.',
  SuccessSchema,
);

export const channexMappingDetailsRoute = hotelRead(
  'channexMappingDetails',
  'mapping_details',
  "The listing's room types and rate plans, for Channex's mapping screen",
  'A room type is a property of the listing; a rate plan is one of its meal plans (EP, CP, MAP, AP), sold per person.',
  'The mapping details.',
  MappingDetailsSchema,
);

export const channexChangesRoute = defineRoute({
  operationId: 'channexChanges',
  method: 'POST',
  path: `${CHANNEX_BASE_PATH}/changes/`,
  auth: 'channex',
  summary: 'Availability, rate and restriction changes from Channex',
  description:
    `${KEY_NOTE} Acknowledged at once and applied behind a queue through the catalogue sync (the same diff, search upkeep, change feed and webhooks as an admin sync). ` +
    'The same request_id again changes nothing. An unknown hotel_code, room_type_id or rate_plan_id refuses the whole POST with a 400 naming it; the refused notification is kept for operators.',
  tags: TAGS,
  rawBody: ChannexChangesSchema,
  responses: {
    200: { description: 'Received; applied shortly after.', schema: ChangesAckSchema },
    400: { description: 'Not JSON, not the documented shape, or naming a hotel, room type or rate plan we do not have; `param` names it.', schema: ErrorBodySchema },
    401: unauthorized,
    409: { description: 'A request_id received before with a different body.', schema: ErrorBodySchema },
    413: { description: 'The body is over 6 MB (what the function can receive).', schema: ErrorBodySchema },
  },
});
