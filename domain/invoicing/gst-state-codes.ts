/**
 * The two-digit GST state codes (the first two characters of every GSTIN), for every
 * state and union territory, as the GST portal lists them. Place of supply on a tax
 * invoice is printed as the state's name with this code.
 *
 * Two codes of the list are historical and kept out of the name lookup: 25 (Daman and
 * Diu, merged into 26 in 2020) and 28 (Andhra Pradesh before 2014, now 37). They stay in
 * `GST_STATE_CODES` so a GSTIN issued under them still resolves by code.
 */
export interface GstState {
  readonly code: string;
  readonly name: string;
  readonly kind: 'STATE' | 'UNION_TERRITORY' | 'OTHER';
  /** True for the two retired codes; never returned by a lookup by name. */
  readonly historical?: true;
}

export const GST_STATE_CODES: readonly GstState[] = [
  { code: '01', name: 'Jammu and Kashmir', kind: 'UNION_TERRITORY' },
  { code: '02', name: 'Himachal Pradesh', kind: 'STATE' },
  { code: '03', name: 'Punjab', kind: 'STATE' },
  { code: '04', name: 'Chandigarh', kind: 'UNION_TERRITORY' },
  { code: '05', name: 'Uttarakhand', kind: 'STATE' },
  { code: '06', name: 'Haryana', kind: 'STATE' },
  { code: '07', name: 'Delhi', kind: 'UNION_TERRITORY' },
  { code: '08', name: 'Rajasthan', kind: 'STATE' },
  { code: '09', name: 'Uttar Pradesh', kind: 'STATE' },
  { code: '10', name: 'Bihar', kind: 'STATE' },
  { code: '11', name: 'Sikkim', kind: 'STATE' },
  { code: '12', name: 'Arunachal Pradesh', kind: 'STATE' },
  { code: '13', name: 'Nagaland', kind: 'STATE' },
  { code: '14', name: 'Manipur', kind: 'STATE' },
  { code: '15', name: 'Mizoram', kind: 'STATE' },
  { code: '16', name: 'Tripura', kind: 'STATE' },
  { code: '17', name: 'Meghalaya', kind: 'STATE' },
  { code: '18', name: 'Assam', kind: 'STATE' },
  { code: '19', name: 'West Bengal', kind: 'STATE' },
  { code: '20', name: 'Jharkhand', kind: 'STATE' },
  { code: '21', name: 'Odisha', kind: 'STATE' },
  { code: '22', name: 'Chhattisgarh', kind: 'STATE' },
  { code: '23', name: 'Madhya Pradesh', kind: 'STATE' },
  { code: '24', name: 'Gujarat', kind: 'STATE' },
  { code: '25', name: 'Daman and Diu', kind: 'UNION_TERRITORY', historical: true },
  { code: '26', name: 'Dadra and Nagar Haveli and Daman and Diu', kind: 'UNION_TERRITORY' },
  { code: '27', name: 'Maharashtra', kind: 'STATE' },
  { code: '28', name: 'Andhra Pradesh (before division)', kind: 'STATE', historical: true },
  { code: '29', name: 'Karnataka', kind: 'STATE' },
  { code: '30', name: 'Goa', kind: 'STATE' },
  { code: '31', name: 'Lakshadweep', kind: 'UNION_TERRITORY' },
  { code: '32', name: 'Kerala', kind: 'STATE' },
  { code: '33', name: 'Tamil Nadu', kind: 'STATE' },
  { code: '34', name: 'Puducherry', kind: 'UNION_TERRITORY' },
  { code: '35', name: 'Andaman and Nicobar Islands', kind: 'UNION_TERRITORY' },
  { code: '36', name: 'Telangana', kind: 'STATE' },
  { code: '37', name: 'Andhra Pradesh', kind: 'STATE' },
  { code: '38', name: 'Ladakh', kind: 'UNION_TERRITORY' },
  { code: '97', name: 'Other Territory', kind: 'OTHER' },
];

/** Spellings in common use that name the same state as the portal's name. */
const ALIASES: Readonly<Record<string, string>> = {
  'nct of delhi': '07',
  'new delhi': '07',
  orissa: '21',
  pondicherry: '34',
  uttaranchal: '05',
  'andaman and nicobar': '35',
  'dadra and nagar haveli': '26',
  'jammu kashmir': '01',
};

/** Case, "&" for "and", punctuation and runs of spaces do not distinguish two names. */
const normalise = (name: string): string =>
  name
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z]+/g, ' ')
    .trim();

const BY_NAME: ReadonlyMap<string, GstState> = (() => {
  const byCode = new Map(GST_STATE_CODES.map((s) => [s.code, s]));
  const map = new Map<string, GstState>();
  for (const s of GST_STATE_CODES) if (!s.historical) map.set(normalise(s.name), s);
  for (const [alias, code] of Object.entries(ALIASES)) map.set(normalise(alias), byCode.get(code)!);
  return map;
})();

const BY_CODE: ReadonlyMap<string, GstState> = new Map(GST_STATE_CODES.map((s) => [s.code, s]));

/** The current state or union territory of this name ("Goa", "tamil nadu", "Jammu & Kashmir"), or undefined. */
export function gstStateByName(name: string): GstState | undefined {
  return BY_NAME.get(normalise(name));
}

/** The state of a two-digit code ("30" → Goa), historical codes included, or undefined. */
export function gstStateByCode(code: string): GstState | undefined {
  return BY_CODE.get(code);
}
