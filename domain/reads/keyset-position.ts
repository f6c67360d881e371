import { ValidationError } from '../errors.ts';

/**
 * A feed cursor's position: the (timestamp, id) pair of the last entry a page ended on,
 * as the text the cursor codec signs. The codec has already verified the signature, so a
 * position that does not parse means a cursor we issued under another format.
 */
export const encodeKeysetPair = (pair: readonly [string, string]): string => JSON.stringify(pair);

export function decodeKeysetPair(position: string): [string, string] {
  const invalid = () => new ValidationError('cursor', 'cursor is malformed, was altered, or belongs to another query; start again without it.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(position);
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || !parsed.every((x) => typeof x === 'string')) throw invalid();
  return [parsed[0] as string, parsed[1] as string];
}
