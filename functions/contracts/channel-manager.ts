import * as v from 'valibot';
import { defineRoute } from '../http/route.ts';
import { ErrorBodySchema } from './common.ts';
import { parseInput } from '../http/validate.ts';

/**
 * Channex's Open Channel API, inbound side (docs.channex.io "For OTA → Open Channel API",
 * sections "API Endpoints", "Test Connection endpoint", "Mapping details endpoint",
 * "Changes API"): three endpoints at one base path, names and trailing slashes fixed by
 * Channex, each protected by the `api-key` header. Operator-facing: Channex calls them, not
 * partners.
 */
export const CHANNEX_BASE_PATH = '/channel-manager/channex';
/** The route key path serving the three (functions/channel-manager/open-channel.ts says why). */
export const CHANNEX_GATEWAY_PATH = `${CHANNEX_BASE_PATH}/{proxy+}`;
const TAGS = ['Channel manager (operators)'];
const KEY_NOTE =
  "Called by Channex, not by partners. The `api-key` header (Channex also documents `api_key`) must hold one of the stage's inbound Channex keys " +
  '(compared in constant time; two are accepted during a rotation); without it the answer is 401 and nothing is read.';

/** hotel_code is our listing id. */
export const HotelCodeQuerySchema = v.strictObject({
  hotel_code: v.pipe(
    v.string(),
    v.minLength(1, 'hotel_code is required'),
    v.maxLength(128),
    v.description('Our listing id (the Open Channel\'s "Hotel Code").'),
  ),
});

const DateSchema = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date yyyy-mm-dd'));
const IdSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(200));
const Nights = v.pipe(v.number(), v.integer('must be a whole number of nights'), v.minValue(0));

/** "Changes API" → availability_changes. */
const ROOM_TYPE = v.pipe(IdSchema, v.description('A property id of the listing (the Open Channel room type).'));
const DATE_FROM = v.pipe(DateSchema, v.description('First date the change applies to.'));
const DATE_TO = v.pipe(DateSchema, v.description('Last date the change applies to, inclusive.'));
const AvailabilityChangeSchema = v.looseObject({
  type: v.pipe(v.literal('availability_changes'), v.description('An availability change.')),
  attributes: v.pipe(
    v.looseObject({
      room_type_id: ROOM_TYPE,
      rate_plan_id: v.optional(v.pipe(v.nullable(IdSchema), v.description('Ignored: availability is per room type.'))),
      date_from: DATE_FROM,
      date_to: DATE_TO,
      availability: v.pipe(
        v.number(),
        v.integer('must be a whole number of units'),
        v.minValue(0),
        v.description("Units open on each date: the day's quantity (more than the property's units is reported, not clamped)."),
      ),
    }),
    v.description('What changed.'),
  ),
});

/** "Changes API" → restriction_changes, and "Prices (rates)" for the rates' shape. */
const RestrictionChangeSchema = v.looseObject({
  type: v.pipe(v.literal('restriction_changes'), v.description('A change of rates or restrictions of one rate plan.')),
  attributes: v.pipe(
    v.looseObject({
      room_type_id: ROOM_TYPE,
      rate_plan_id: v.pipe(IdSchema, v.description('`<propertyId>:<EP|CP|MAP|AP>`: one meal plan of the property.')),
      date_from: DATE_FROM,
      date_to: DATE_TO,
      rates: v.optional(
        v.pipe(
          v.array(
            v.looseObject({
              rate: v.pipe(
                v.string(),
                v.regex(/^\d+(\.\d+)?$/, 'must be a decimal string such as "200.00"'),
                v.description('The rate as a decimal string, whole rupees ("5200.00"); paise are reported, not applied.'),
              ),
              currency: v.optional(
                v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code'), v.description('ISO 4217; anything but INR is reported.')),
              ),
              fraction_size: v.optional(
                v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(4), v.description('Decimal places of the currency, as Channex sends it.')),
              ),
              occupancy: v.optional(
                v.pipe(v.number(), v.integer(), v.minValue(1), v.description('The adult count the rate is for; absent means max_persons.')),
              ),
            }),
          ),
          v.description("The meal plan's rate per adult count on each date."),
        ),
      ),
      stop_sell: v.optional(v.pipe(v.boolean(), v.description("The plan's stopSell on each date."))),
      closed_to_arrival: v.optional(v.pipe(v.boolean(), v.description('No stay on the plan may start on these dates.'))),
      closed_to_departure: v.optional(v.pipe(v.boolean(), v.description('No stay on the plan may check out on these dates.'))),
      min_stay_arrival: v.optional(v.pipe(Nights, v.description("Fewest nights for stays arriving on the date: the plan's minimumStayArrival."))),
      min_stay_through: v.optional(v.pipe(Nights, v.description("Fewest nights for every stay touching the date: the plan's minimumStay."))),
      min_stay: v.optional(v.pipe(Nights, v.description('Taken as min_stay_through.'))),
      max_stay: v.optional(v.pipe(Nights, v.description("Most nights for a stay touching the date (0 = none): the plan's maximumStay."))),
    }),
    v.description('What changed; an absent field is left as it is.'),
  ),
});

/**
 * "Changes API" request body: a list of changes notifications, each with its own request_id.
 * Every object is loose: the fields listed are the ones read, each checked strictly (a missing or
 * ill-typed one is a 400 naming it); anything else Channex sends, now or later, is accepted and
 * not read (kept with the stored notification as received).
 */
const changesBody = <C extends v.GenericSchema>(change: C) =>
  v.looseObject({
    data: v.pipe(
      v.array(
        v.looseObject({
          type: v.pipe(v.literal('changes_notification'), v.description('Always changes_notification.')),
          attributes: v.pipe(
            v.looseObject({
              request_id: v.pipe(
                v.string(),
                v.regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be a request id (Channex sends a UUID v4)'),
                v.description("Channex's id for the notification; a notification seen before is not applied again."),
              ),
              hotel_code: v.pipe(v.string(), v.minLength(1), v.maxLength(128), v.description('Our listing id.')),
              changes: v.pipe(v.array(change), v.description('The changes, applied in the order sent.')),
            }),
            v.description('One notification.'),
          ),
        }),
      ),
      v.minLength(1, 'must hold at least one changes_notification'),
      v.description('The notifications of this POST.'),
    ),
  });

export const ChannexChangesSchema = changesBody(v.variant('type', [AvailabilityChangeSchema, RestrictionChangeSchema]));
/** The envelope alone: the changes are checked by plainChange, or by the whole schema when one is not plain. */
const ChannexEnvelopeSchema = changesBody(v.unknown());

type ChannexChangesBody = v.InferOutput<typeof ChannexChangesSchema>;

/**
 * Channex batches up to 10 MB, and the answer must come within a second: valibot's generic
 * walk over 20,000 changes, and then copying them, cost most of it (bench/channex-bench.ts).
 * A change in the plain form Channex sends (a JSON object, every field read of the schema's
 * type and range; the schema is loose, so other keys pass as they are) is checked where it
 * lies, without a copy: the body is then returned as parsed, equal to what valibot would output
 * (keys in the sender's order). Anything else goes to the whole schema, whose issue names the field.
 */
export function parseChannexChanges(input: unknown): ChannexChangesBody {
  const envelope = v.safeParse(ChannexEnvelopeSchema, input, { abortPipeEarly: true });
  if (envelope.success && envelope.output.data.every((n) => n.attributes.changes.every(plainChange))) {
    return input as ChannexChangesBody;
  }
  return parseInput(ChannexChangesSchema, input, 'body');
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const RATE = /^\d+(\.\d+)?$/;
const CURRENCY = /^[A-Z]{3}$/;
const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isId = (x: unknown): x is string => typeof x === 'string' && x.length >= 1 && x.length <= 200;
const isDate = (x: unknown): x is string => typeof x === 'string' && DATE.test(x);
const isCount = (x: unknown, min: number): x is number => typeof x === 'number' && Number.isInteger(x) && x >= min;
const FLAGS = ['stop_sell', 'closed_to_arrival', 'closed_to_departure'] as const;
const NIGHT_FIELDS = ['min_stay_arrival', 'min_stay_through', 'min_stay', 'max_stay'] as const;

/** Whether AvailabilityChangeSchema or RestrictionChangeSchema would output this change unchanged. */
function plainChange(c: unknown): boolean {
  if (!isRecord(c) || !isRecord(c.attributes)) return false;
  const a = c.attributes;
  if (!isId(a.room_type_id) || !isDate(a.date_from) || !isDate(a.date_to)) return false;
  if (c.type === 'availability_changes') {
    return isCount(a.availability, 0) && (a.rate_plan_id === undefined ? !('rate_plan_id' in a) : a.rate_plan_id === null || isId(a.rate_plan_id));
  }
  if (c.type !== 'restriction_changes' || !isId(a.rate_plan_id)) return false;
  if ('rates' in a) {
    if (!Array.isArray(a.rates)) return false;
    for (const r of a.rates as unknown[]) {
      if (!isRecord(r) || typeof r.rate !== 'string' || !RATE.test(r.rate)) return false;
      if ('currency' in r && !(typeof r.currency === 'string' && CURRENCY.test(r.currency))) return false;
      if ('fraction_size' in r && !(isCount(r.fraction_size, 0) && r.fraction_size <= 4)) return false;
      if ('occupancy' in r && !isCount(r.occupancy, 1)) return false;
    }
  }
  for (const flag of FLAGS) if (flag in a && typeof a[flag] !== 'boolean') return false;
  for (const field of NIGHT_FIELDS) if (field in a && !isCount(a[field], 0)) return false;
  return true;
}

const SuccessSchema = v.object({ success: v.pipe(v.literal(true), v.description('Always true: the key and hotel_code were accepted.')) });

const MappingDetailsSchema = v.object({
  data: v.pipe(
    v.object({
      type: v.pipe(v.literal('mapping_details'), v.description('Always mapping_details.')),
      attributes: v.pipe(
        v.object({
          room_types: v.pipe(
            v.array(
              v.object({
                id: v.pipe(v.string(), v.description('A property id of the listing.')),
                title: v.pipe(v.string(), v.description("The property's name.")),
                rate_plans: v.pipe(
                  v.array(
                    v.object({
                      id: v.pipe(v.string(), v.description('`<propertyId>:<EP|CP|MAP|AP>`: one meal plan of the property.')),
                      title: v.pipe(v.string(), v.description('The property and meal plan, in words.')),
                      sell_mode: v.pipe(v.literal('per_person'), v.description('Always per_person: our rates are per adult count.')),
                      max_persons: v.pipe(
                        v.number(),
                        v.description("The property's maxAdults, the most guests a unit takes: rates are taken per adult count up to it."),
                      ),
                      currency: v.pipe(v.literal('INR'), v.description('Always INR.')),
                      read_only: v.pipe(v.boolean(), v.description('Always false: Channex may push rates and restrictions to the plan.')),
                    }),
                  ),
                  v.description('Its four meal plans.'),
                ),
              }),
            ),
            v.description('Every property of the listing.'),
          ),
        }),
        v.description('The mapping.'),
      ),
    }),
    v.description('The listing, as Channex maps it.'),
  ),
});

const ChangesAckSchema = v.object({
  success: v.pipe(v.literal(true), v.description('Always true: the notifications were accepted (applied after the answer).')),
  unique_id: v.pipe(v.string(), v.description('Our reference for this POST (the same request_ids give the same one), for incident reviews.')),
  warnings: v.optional(
    v.pipe(
      v.array(
        v.object({
          path: v.pipe(v.string(), v.description('Where in the body, such as data[0].attributes.changes[3].attributes.rates[0].')),
          reason: v.pipe(v.string(), v.description('Why it was not applied as sent.')),
        }),
      ),
      v.description(
        'What is not applied as sent, each with the path of the change and why: dates in the past or beyond the 730-day window, an unknown room_type_id or rate_plan_id, ' +
          'availability above the units, a currency other than INR, an occupancy above max_persons, a rate in paise (partners are sold whole rupees) or a stay length out of range. ' +
          'The rest of the notification applies. Channex documents only success and unique_id; this field is ours, and the same list is in the operator log and on the stored record.',
      ),
    ),
  ),
});

const unauthorized = { description: "The api-key header is missing or not one of the stage's inbound Channex keys.", schema: ErrorBodySchema };

/** A GET Channex makes with `?hotel_code=`: the two read endpoints differ only in what they answer. */
const hotelRead = <S extends typeof SuccessSchema | typeof MappingDetailsSchema>(
  operationId: string,
  name: string,
  summary: string,
  description: string,
  answer: string,
  schema: S,
) =>
  defineRoute({
    operationId,
    method: 'GET',
    path: `${CHANNEX_BASE_PATH}/${name}/`,
    gatewayPath: CHANNEX_GATEWAY_PATH,
    auth: 'channex',
    summary,
    description: `${KEY_NOTE} ${description}`,
    tags: TAGS,
    query: HotelCodeQuerySchema,
    responses: {
      200: { description: answer, schema },
      400: { description: 'hotel_code is missing.', schema: ErrorBodySchema },
      401: unauthorized,
      404: { description: 'No listing connected to Channex has this id (a listing of ours that is not connected answers the same).', schema: ErrorBodySchema },
    },
  });

export const channexTestConnectionRoute = hotelRead(
  'channexTestConnection',
  'test_connection',
  "Channex's connection test for one listing",
  'Answers `{"success": true}` when hotel_code is one of our listings connected to Channex.',
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
  gatewayPath: CHANNEX_GATEWAY_PATH,
  auth: 'channex',
  summary: 'Availability, rate and restriction changes from Channex',
  description:
    `${KEY_NOTE} Acknowledged at once and applied behind a queue through the catalogue sync (the same diff, search upkeep, change feed and webhooks as an admin sync). ` +
    'The same request_id again changes nothing. A hotel_code that is not one of our listings connected to Channex, or an impossible date range, refuses the notification with a 400 naming it (kept for operators); ' +
    'an unknown room_type_id or rate_plan_id, and any value not applied as sent, is reported in `warnings` and the rest applies.',
  tags: TAGS,
  rawBody: ChannexChangesSchema,
  responses: {
    200: { description: 'Received; applied shortly after.', schema: ChangesAckSchema },
    400: {
      description:
        'Not JSON, not the documented shape, an impossible date range, or a hotel that is not one of our listings connected to Channex; `param` names it.',
      schema: ErrorBodySchema,
      codes: ['VALIDATION_FAILED', 'MALFORMED_JSON'],
    },
    401: unauthorized,
    409: { description: 'A request_id received before with a different body.', schema: ErrorBodySchema },
    413: { description: 'The body is over 6 MB (what the function can receive).', schema: ErrorBodySchema },
  },
});
