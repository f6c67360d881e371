import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../domain/errors.ts';
import { parseSearchQuery, type RawParam } from '../../domain/search/search-query.ts';

const TODAY = '2027-01-10';
const stay: RawParam[] = [
  { filterName: 'checkIn', filterValues: ['2027-02-01'] },
  { filterName: 'checkOut', filterValues: ['2027-02-04'] },
];
const parse = (rawParams: RawParam[], extra: Parameters<typeof parseSearchQuery>[0] extends infer B ? Omit<B & object, 'rawParams'> : never = {}) =>
  parseSearchQuery({ rawParams, ...extra }, TODAY);

function refusal(fn: () => unknown): { param: string; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return { param: err.param, message: err.message };
    throw err;
  }
  throw new Error('expected a ValidationError');
}

describe('Function: parseSearchQuery', () => {
  it('applies the defaults: one adult, no children, EP, relevance, page 1 of 20', () => {
    const q = parse(stay);
    expect(q).toMatchObject({
      checkIn: '2027-02-01',
      checkOut: '2027-02-04',
      adults: 1,
      children: 0,
      mealPlan: 'EP',
      sort: 'relevance',
      page: 1,
      size: 20,
      petFriendly: false,
      minBedrooms: 0,
    });
    expect(q.nights).toEqual(['2027-02-01', '2027-02-02', '2027-02-03']);
  });

  it('reads every filter of the vocabulary', () => {
    const q = parse([
      ...stay,
      { filterName: 'adults', filterValues: ['6'] },
      { filterName: 'children', filterValues: ['2'] },
      { filterName: 'city', filterValues: ['Anjuna', 'ASSAGAO'] },
      { filterName: 'state', filterValues: ['Goa'] },
      { filterName: 'locality', filterValues: ['Badem'] },
      { filterName: 'propertyType', filterValues: ['villa'] },
      { filterName: 'brand', filterValues: ['Coastal Collection'] },
      { filterName: 'tags', filterValues: ['beach', 'Pool'] },
      { filterName: 'amenities', filterValues: ['Wi-Fi'] },
      { filterName: 'minPrice', filterValues: ['1000'] },
      { filterName: 'maxPrice', filterValues: ['25000.50'] },
      { filterName: 'petFriendly', filterValues: ['true'] },
      { filterName: 'minBedrooms', filterValues: ['3'] },
      { filterName: 'mealPlan', filterValues: ['cp'] },
      { filterName: 'sort', filterValues: ['price_desc'] },
      { filterName: 'page', filterValues: ['2'] },
      { filterName: 'size', filterValues: ['100'] },
    ]);
    expect(q).toMatchObject({
      adults: 6,
      children: 2,
      minPrice: 100_000,
      maxPrice: 2_500_050,
      petFriendly: true,
      minBedrooms: 3,
      mealPlan: 'CP',
      sort: 'price_desc',
      page: 2,
      size: 100,
    });
    expect([...q.cities!]).toEqual(['anjuna', 'assagao']);
    expect(q.tags).toEqual(['beach', 'pool']);
  });

  it.each([
    [[...stay, { filterName: 'colour', filterValues: ['blue'] }], 'rawParams[2].filterName'],
    [[...stay, { filterName: 'size', filterValues: ['101'] }], 'rawParams[2].filterValues[0]'],
    [[...stay, { filterName: 'size', filterValues: ['0'] }], 'rawParams[2].filterValues[0]'],
    [[...stay, { filterName: 'page', filterValues: ['x'] }], 'rawParams[2].filterValues[0]'],
    [[...stay, { filterName: 'adults', filterValues: ['0'] }], 'rawParams[2].filterValues[0]'],
    [[...stay, { filterName: 'adults', filterValues: ['2', '3'] }], 'rawParams[2].filterValues'],
    [[...stay, { filterName: 'city', filterValues: [] }], 'rawParams[2].filterValues'],
    [[...stay, { filterName: 'city', filterValues: ['Goa', ' '] }], 'rawParams[2].filterValues[1]'],
    [[...stay, { filterName: 'sort', filterValues: ['cheapest'] }], 'rawParams[2].filterValues[0]'],
    [[...stay, { filterName: 'mealPlan', filterValues: ['XP'] }], 'rawParams[2].filterValues[0]'],
    [[...stay, { filterName: 'petFriendly', filterValues: ['yes'] }], 'rawParams[2].filterValues[0]'],
    [[...stay, { filterName: 'minPrice', filterValues: ['-1'] }], 'rawParams[2].filterValues[0]'],
    [[...stay, { filterName: 'minPrice', filterValues: ['10.001'] }], 'rawParams[2].filterValues[0]'],
    [[...stay, { filterName: 'minPrice', filterValues: ['500'] }, { filterName: 'maxPrice', filterValues: ['400'] }], 'rawParams[3].filterValues[0]'],
    [[...stay, { filterName: 'city', filterValues: ['Goa'] }, { filterName: 'city', filterValues: ['Pune'] }], 'rawParams[3].filterName'],
    [[{ filterName: 'checkIn', filterValues: ['2027-02-30'] }, stay[1]!], 'rawParams[0].filterValues[0]'],
    [[{ filterName: 'checkIn', filterValues: ['2027-01-09'] }, stay[1]!], 'rawParams[0].filterValues[0]'],
    [[stay[0]!, { filterName: 'checkOut', filterValues: ['2027-02-01'] }], 'rawParams[1].filterValues[0]'],
    [[stay[0]!, { filterName: 'checkOut', filterValues: ['2027-06-01'] }], 'rawParams[1].filterValues[0]'],
    [[stay[0]!], 'rawParams'],
    [[], 'rawParams'],
  ] as [RawParam[], string][])('refuses %j naming %s', (rawParams, param) => {
    expect(refusal(() => parse(rawParams)).param).toBe(param);
  });

  it('names the allowed filters when one is unknown', () => {
    expect(refusal(() => parse([{ filterName: 'colour', filterValues: ['x'] }])).message).toMatch(/checkIn, checkOut, adults.*size/);
  });

  it('treats filter names as the contract spells them (case-sensitive)', () => {
    expect(refusal(() => parse([...stay, { filterName: 'City', filterValues: ['Goa'] }])).param).toBe('rawParams[2].filterName');
  });

  it('reads PROPERTY selections as pins with quantity 1 by default', () => {
    const q = parse(stay, {
      selections: [
        { type: 'PROPERTY', id: 'p1' },
        { type: 'PROPERTY', id: 'p2', quantity: 2, date: '2027-02-01' },
      ],
    });
    expect(q.pins).toEqual([
      { propertyId: 'p1', quantity: 1, index: 0 },
      { propertyId: 'p2', quantity: 2, index: 1 },
    ]);
  });

  it.each([
    [{ type: 'MEAL', id: 'breakfast' }, 'selections[0].type'],
    [{ type: 'property', id: 'p1' }, 'selections[0].type'],
    [{ type: 'PROPERTY', id: 'p1', date: '2027-02-02' }, 'selections[0].date'],
    [{ type: 'PROPERTY', id: 'p1', quantity: 51 }, 'selections[0].quantity'],
  ])('refuses the selection %j naming %s', (selection, param) => {
    expect(refusal(() => parse(stay, { selections: [selection] })).param).toBe(param);
  });

  it('refuses a property selected twice', () => {
    expect(
      refusal(() =>
        parse(stay, {
          selections: [
            { type: 'PROPERTY', id: 'p1' },
            { type: 'PROPERTY', id: 'p1' },
          ],
        }),
      ).param,
    ).toBe('selections[1].id');
  });
});
