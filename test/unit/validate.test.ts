import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../domain/errors.ts';
import { parseInput } from '../../functions/http/validate.ts';

const OrderSchema = v.strictObject({
  externalBookingId: v.pipe(v.string(), v.maxLength(64)),
  selectedProperties: v.array(
    v.object({
      listingId: v.string(),
      quantity: v.pipe(v.number(), v.integer(), v.minValue(1)),
    }),
  ),
});

/** The ValidationError parseInput throws, or a failure when it accepted the input. */
function refusal(schema: v.GenericSchema, input: unknown, fallback = 'body'): ValidationError {
  try {
    parseInput(schema, input, fallback);
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return err as ValidationError;
  }
  throw new Error('parseInput accepted the input');
}

describe('parseInput', () => {
  it('returns the parsed value when the input fits the schema', () => {
    const input = { externalBookingId: 'ext-1', selectedProperties: [{ listingId: 'l-1', quantity: 2 }] };

    expect(parseInput(OrderSchema, input, 'body')).toEqual(input);
  });

  it('names a nested body field the way a partner writes it: selectedProperties[0].quantity', () => {
    const err = refusal(OrderSchema, { externalBookingId: 'ext-1', selectedProperties: [{ listingId: 'l-1', quantity: 0 }] });

    expect(err.param).toBe('selectedProperties[0].quantity');
    expect(err.message).toMatch(/^selectedProperties\[0\]\.quantity: /);
  });

  it('names the index of a later array element', () => {
    const err = refusal(OrderSchema, {
      externalBookingId: 'ext-1',
      selectedProperties: [
        { listingId: 'l-1', quantity: 1 },
        { listingId: 42, quantity: 1 },
      ],
    });

    expect(err.param).toBe('selectedProperties[1].listingId');
  });

  it('names a missing top-level field', () => {
    const err = refusal(OrderSchema, { selectedProperties: [] });

    expect(err.param).toBe('externalBookingId');
  });

  it('names an unknown empty or odd key by quoting it, never with an empty param', () => {
    const empty = refusal(OrderSchema, { externalBookingId: 'ext-1', selectedProperties: [], '': 1 });
    const spaced = refusal(v.strictObject({ guests: v.array(v.strictObject({})) }), { guests: [{ 'a b': 1 }] });
    const query = refusal(v.strictObject({ size: v.optional(v.string()) }), { 'foo[bar]': 'x' }, 'query');

    expect(empty.param).toBe('body[""]');
    expect(empty.message).toBe('body[""] is not a recognised parameter.');
    expect(query.param).toBe('query["foo[bar]"]');
    expect(spaced.param).toBe('guests[0]["a b"]');
  });

  it('calls an unknown field not a recognised parameter', () => {
    const err = refusal(OrderSchema, { externalBookingId: 'ext-1', selectedProperties: [], discount: 5 });

    expect(err.param).toBe('discount');
    expect(err.message).toBe('discount is not a recognised parameter.');
  });

  it('falls back to the part of the request when the whole value is wrong', () => {
    const err = refusal(OrderSchema, 'not an object', 'body');

    expect(err.param).toBe('body');
  });

  it('reports the first broken rule of a field only', () => {
    const err = refusal(OrderSchema, { externalBookingId: 'x'.repeat(65), selectedProperties: 'nope' });

    expect(err.param).toBe('externalBookingId');
    expect(err.code).toBe('VALIDATION_FAILED');
  });
});
