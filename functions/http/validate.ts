import * as v from 'valibot';
import { ValidationError } from '../../domain/errors.ts';
import type { AnySchema } from './route.ts';

/** A key a partner can read after a dot; anything else (empty, spaces, brackets) is quoted. */
const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/**
 * `selectedProperties.0.quantity` → `selectedProperties[0].quantity`: how a partner reads a
 * body path. A key that would vanish or mislead after a dot (`""`, `a b`) is written
 * `body[""]`, so the parameter is always named.
 */
function paramName(issue: v.BaseIssue<unknown>, fallback: string): string {
  const keys = issue.path?.map((p) => p.key) ?? [];
  if (keys.length === 0) return fallback;
  return keys.reduce<string>((acc, k) => {
    if (typeof k === 'number') return `${acc}[${k}]`;
    const key = String(k);
    if (!PLAIN_KEY.test(key)) return `${acc || fallback}[${JSON.stringify(key)}]`;
    return acc ? `${acc}.${key}` : key;
  }, '');
}

/**
 * Parses one part of the request against its schema. The first issue becomes a 400
 * whose `param` names the offending field and whose message says what is wrong with it.
 */
export function parseInput<S extends AnySchema>(schema: S, input: unknown, fallbackParam: string): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const param = paramName(issue, fallbackParam);
  const unknownKey = issue.kind === 'schema' && issue.type === 'strict_object' && issue.expected === 'never';
  throw new ValidationError(param, unknownKey ? `${param} is not a recognised parameter.` : `${param}: ${issue.message}`);
}
