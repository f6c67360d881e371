import * as v from 'valibot';
import { ValidationError } from '../../domain/errors.ts';
import type { AnySchema } from './route.ts';

/** `selectedProperties.0.quantity` → `selectedProperties[0].quantity`: how a partner reads a body path. */
function paramName(issue: v.BaseIssue<unknown>, fallback: string): string {
  const keys = issue.path?.map((p) => p.key) ?? [];
  if (keys.length === 0) return fallback;
  return keys.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc ? `${acc}.${String(k)}` : String(k)), '');
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
