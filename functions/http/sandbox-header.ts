import { ValidationError } from '../../domain/errors.ts';
import type { Config } from '../../infra/config.ts';
import type { HttpEvent } from './types.ts';

export const SCENARIO_HEADER = 'X-Test-Scenario';

/**
 * The sandbox scenario a request asks for, among the values its route accepts (docs/sandbox.md).
 * Production configuration ignores the header entirely, whatever it holds; on sandbox stages
 * a value the route does not know is a 400 naming the header.
 */
export function sandboxHeader<T extends string>(event: Pick<HttpEvent, 'headers'>, config: Pick<Config, 'isSandbox'>, accepted: readonly T[]): T | undefined {
  if (!config.isSandbox) return undefined;
  const value = event.headers?.[SCENARIO_HEADER.toLowerCase()];
  if (value === undefined) return undefined;
  const known = accepted.find((s) => s === value);
  if (!known) throw new ValidationError(SCENARIO_HEADER, `${SCENARIO_HEADER} must be one of ${accepted.join(', ')} here.`);
  return known;
}
