import { addDays, daysBetween } from '../catalogue/calendar.ts';
import { requireCalendarDate } from '../reads/date-window.ts';
import { MEAL_PLANS, type MealPlan } from '../catalogue/day.ts';
import { ValidationError } from '../errors.ts';
import { parseRupees, type Minor } from '../money.ts';
import { DEFAULT_MEAL_PLAN, MAX_STAY_NIGHTS, MAX_UNITS_PER_PROPERTY } from '../pricing/index.ts';

/** One filter of the request body, as the contract names it. */
export interface RawParam {
  readonly filterName: string;
  readonly filterValues: readonly string[];
}

/** One element of `selections`, shape-checked at the edge. */
export interface Selection {
  readonly date?: string;
  readonly type: string;
  readonly id: string;
  readonly adults?: number;
  readonly children?: number;
  readonly quantity?: number;
}

export const SEARCH_SORTS = ['relevance', 'price_asc', 'price_desc', 'rating'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** `selections[].type` values search understands; meals and services are priced by the order preview. */
export const SELECTION_TYPES = ['PROPERTY'] as const;

/** Page size limits: rejected above the maximum, never clamped. */
export const SEARCH_PAGE = { defaultSize: 20, maxSize: 100 } as const;
export const MAX_ADULTS = 100;
export const MAX_CHILDREN = 50;

/** A property pinned by a PROPERTY selection. */
export interface Pin {
  readonly propertyId: string;
  readonly quantity: number;
  /** Index in `selections`, so a refusal can name it. */
  readonly index: number;
}

/** The request after every rule below: what the use case searches for. */
export interface SearchQuery {
  readonly checkIn: string;
  readonly checkOut: string;
  readonly nights: readonly string[];
  readonly adults: number;
  readonly children: number;
  /** Lower-cased; a listing matches when its value is one of these. */
  readonly cities?: ReadonlySet<string>;
  readonly states?: ReadonlySet<string>;
  readonly localities?: ReadonlySet<string>;
  readonly propertyTypes?: ReadonlySet<string>;
  readonly brands?: ReadonlySet<string>;
  /** Lower-cased; a listing matches when it has every one. */
  readonly tags: readonly string[];
  readonly amenities: readonly string[];
  readonly minPrice?: Minor;
  readonly maxPrice?: Minor;
  readonly petFriendly: boolean;
  readonly minBedrooms: number;
  readonly mealPlan: MealPlan;
  readonly sort: SearchSort;
  readonly page: number;
  readonly size: number;
  readonly pins: readonly Pin[];
  readonly cancellationPlanId?: string;
}

type Draft = { -readonly [K in keyof SearchQuery]?: SearchQuery[K] };

interface Filter {
  /** One value only (checkIn, page, …) or a list (city, tags, …). */
  readonly single: boolean;
  readonly apply: (values: readonly string[], at: (j: number) => string, q: Draft, today: string) => void;
}

const INT = /^\d{1,9}$/;

function wholeNumber(value: string, param: string, min: number, max: number, what: string): number {
  const n = INT.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ValidationError(param, `${param} must be a whole number from ${min} to ${max} (${what}); got "${value}".`);
  return n;
}

function rupees(value: string, param: string): Minor {
  const paise = parseRupees(value);
  if (paise === undefined || paise < 0)
    throw new ValidationError(param, `${param} must be an amount in rupees, at least 0, with at most two decimals; got "${value}".`);
  return paise;
}

function date(value: string, param: string): string {
  return requireCalendarDate(param, value.trim());
}

function words(values: readonly string[], at: (j: number) => string): string[] {
  return values.map((value, j) => {
    const word = value.trim().toLowerCase();
    if (!word) throw new ValidationError(at(j), `${at(j)} must not be empty.`);
    return word;
  });
}

const anyOf = (key: 'cities' | 'states' | 'localities' | 'propertyTypes' | 'brands'): Filter => ({
  single: false,
  apply: (values, at, q) => {
    q[key] = new Set(words(values, at));
  },
});

/**
 * The filter vocabulary of `rawParams` (docs/search.md). Names are case-sensitive, as
 * the contract spells its own fields; values of text filters are matched ignoring case.
 */
export const FILTERS: Readonly<Record<string, Filter>> = {
  checkIn: {
    single: true,
    apply: ([v], at, q, today) => {
      const d = date(v!, at(0));
      if (d < today) throw new ValidationError(at(0), `${at(0)}: checkIn ${d} is in the past; the earliest is ${today}.`);
      q.checkIn = d;
    },
  },
  checkOut: {
    single: true,
    apply: ([v], at, q) => {
      q.checkOut = date(v!, at(0));
    },
  },
  adults: {
    single: true,
    apply: ([v], at, q) => {
      q.adults = wholeNumber(v!, at(0), 1, MAX_ADULTS, 'guests aged 12 and over');
    },
  },
  children: {
    single: true,
    apply: ([v], at, q) => {
      q.children = wholeNumber(v!, at(0), 0, MAX_CHILDREN, 'guests under 12');
    },
  },
  city: anyOf('cities'),
  state: anyOf('states'),
  locality: anyOf('localities'),
  propertyType: anyOf('propertyTypes'),
  brand: anyOf('brands'),
  tags: {
    single: false,
    apply: (values, at, q) => {
      q.tags = words(values, at);
    },
  },
  amenities: {
    single: false,
    apply: (values, at, q) => {
      q.amenities = words(values, at);
    },
  },
  minPrice: {
    single: true,
    apply: ([v], at, q) => {
      q.minPrice = rupees(v!, at(0));
    },
  },
  maxPrice: {
    single: true,
    apply: ([v], at, q) => {
      q.maxPrice = rupees(v!, at(0));
    },
  },
  petFriendly: {
    single: true,
    apply: ([v], at, q) => {
      const flag = v!.trim().toLowerCase();
      if (flag !== 'true' && flag !== 'false') throw new ValidationError(at(0), `${at(0)} must be "true" or "false"; got "${v}".`);
      q.petFriendly = flag === 'true';
    },
  },
  minBedrooms: {
    single: true,
    apply: ([v], at, q) => {
      q.minBedrooms = wholeNumber(v!, at(0), 0, 100, 'bedrooms in the listing');
    },
  },
  mealPlan: {
    single: true,
    apply: ([v], at, q) => {
      const plan = MEAL_PLANS.find((p) => p === v!.trim().toUpperCase());
      if (!plan) throw new ValidationError(at(0), `${at(0)} must be one of ${MEAL_PLANS.join(', ')}; got "${v}".`);
      q.mealPlan = plan;
    },
  },
  sort: {
    single: true,
    apply: ([v], at, q) => {
      const sort = SEARCH_SORTS.find((s) => s === v!.trim().toLowerCase());
      if (!sort) throw new ValidationError(at(0), `${at(0)} must be one of ${SEARCH_SORTS.join(', ')}; got "${v}".`);
      q.sort = sort;
    },
  },
  page: {
    single: true,
    apply: ([v], at, q) => {
      q.page = wholeNumber(v!, at(0), 1, 1_000_000, '1-based page');
    },
  },
  size: {
    single: true,
    apply: ([v], at, q) => {
      q.size = wholeNumber(v!, at(0), 1, SEARCH_PAGE.maxSize, 'listings per page');
    },
  },
};

export const FILTER_NAMES = Object.keys(FILTERS);

/**
 * Reads a search body into a SearchQuery. Every refusal is a ValidationError naming the
 * exact place, e.g. `rawParams[2].filterValues[0]` or `selections[1].type`; nothing is
 * clamped or dropped.
 */
export function parseSearchQuery(
  body: { rawParams: readonly RawParam[]; selections?: readonly Selection[]; selectedCancellationPlanId?: string },
  today: string,
): SearchQuery {
  const q: Draft = {};
  const seen = new Map<string, number>();
  body.rawParams.forEach((raw, i) => {
    const filter = Object.hasOwn(FILTERS, raw.filterName) ? FILTERS[raw.filterName] : undefined;
    if (!filter)
      throw new ValidationError(
        `rawParams[${i}].filterName`,
        `rawParams[${i}].filterName "${raw.filterName}" is not a search filter; use one of ${FILTER_NAMES.join(', ')}.`,
      );
    const earlier = seen.get(raw.filterName);
    if (earlier !== undefined)
      throw new ValidationError(
        `rawParams[${i}].filterName`,
        `rawParams[${i}].filterName ${raw.filterName} repeats rawParams[${earlier}]; give each filter once with all its values.`,
      );
    seen.set(raw.filterName, i);
    const count = raw.filterValues.length;
    if (count === 0 || (filter.single && count > 1)) {
      const wants = filter.single ? 'exactly one value' : 'at least one value';
      throw new ValidationError(`rawParams[${i}].filterValues`, `rawParams[${i}].filterValues: ${raw.filterName} takes ${wants}; got ${count}.`);
    }
    filter.apply(raw.filterValues, (j) => `rawParams[${i}].filterValues[${j}]`, q, today);
  });

  const checkIn = q.checkIn;
  const checkOut = q.checkOut;
  if (checkIn === undefined || checkOut === undefined) {
    throw new ValidationError(
      'rawParams',
      `rawParams must include ${checkIn === undefined ? 'checkIn' : 'checkOut'}: search prices a stay, so both dates are required.`,
    );
  }
  const nights = daysBetween(checkIn, checkOut);
  const checkOutAt = `rawParams[${seen.get('checkOut')}].filterValues[0]`;
  if (nights < 1) throw new ValidationError(checkOutAt, `${checkOutAt}: checkOut must be after checkIn (${checkIn}).`);
  if (nights > MAX_STAY_NIGHTS) throw new ValidationError(checkOutAt, `${checkOutAt}: a stay is at most ${MAX_STAY_NIGHTS} nights; this one is ${nights}.`);
  if (q.minPrice !== undefined && q.maxPrice !== undefined && q.minPrice > q.maxPrice) {
    const at = `rawParams[${seen.get('maxPrice')}].filterValues[0]`;
    throw new ValidationError(at, `${at}: maxPrice must not be below minPrice.`);
  }

  return {
    checkIn,
    checkOut,
    nights: Array.from({ length: nights }, (_, k) => addDays(checkIn, k)),
    adults: q.adults ?? 1,
    children: q.children ?? 0,
    cities: q.cities,
    states: q.states,
    localities: q.localities,
    propertyTypes: q.propertyTypes,
    brands: q.brands,
    tags: q.tags ?? [],
    amenities: q.amenities ?? [],
    minPrice: q.minPrice,
    maxPrice: q.maxPrice,
    petFriendly: q.petFriendly ?? false,
    minBedrooms: q.minBedrooms ?? 0,
    mealPlan: q.mealPlan ?? DEFAULT_MEAL_PLAN,
    sort: q.sort ?? 'relevance',
    page: q.page ?? 1,
    size: q.size ?? SEARCH_PAGE.defaultSize,
    pins: parsePins(body.selections ?? [], checkIn),
    cancellationPlanId: body.selectedCancellationPlanId,
  };
}

function parsePins(selections: readonly Selection[], checkIn: string): Pin[] {
  const seen = new Set<string>();
  return selections.map((s, i) => {
    const at = `selections[${i}]`;
    if (!(SELECTION_TYPES as readonly string[]).includes(s.type)) {
      throw new ValidationError(
        `${at}.type`,
        `${at}.type "${s.type}" is not a selection type; use one of ${SELECTION_TYPES.join(', ')} (meals and services are priced by the order preview).`,
      );
    }
    if (s.date !== undefined && s.date !== checkIn) {
      throw new ValidationError(
        `${at}.date`,
        `${at}.date: a PROPERTY selection covers the whole stay, so its date must be the checkIn (${checkIn}) or omitted.`,
      );
    }
    if (seen.has(s.id)) throw new ValidationError(`${at}.id`, `${at}.id ${s.id} is selected twice; give one selection with the total quantity.`);
    seen.add(s.id);
    const quantity = s.quantity ?? 1;
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_UNITS_PER_PROPERTY) {
      throw new ValidationError(`${at}.quantity`, `${at}.quantity must be a whole number from 1 to ${MAX_UNITS_PER_PROPERTY}.`);
    }
    return { propertyId: s.id, quantity, index: i };
  });
}
