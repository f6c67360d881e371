import { ValidationError } from '../errors.ts';

export interface WorldIssue {
  /** JSON path inside the world document, e.g. `catalogue.listings[3].properties[1].maxAdults`. */
  readonly path: string;
  readonly message: string;
}

/** How many problems an error carries beyond the first; a broken generator can make thousands. */
export const MAX_REPORTED_ISSUES = 50;

/**
 * A world document broke a rule. `param` is the JSON path of the first problem; `issues`
 * lists the first MAX_REPORTED_ISSUES of them, so an operator can fix a file in one pass.
 */
export class WorldValidationError extends ValidationError {
  readonly issues: readonly WorldIssue[];
  readonly issueCount: number;

  constructor(issues: readonly WorldIssue[]) {
    const first = issues[0] ?? { path: '', message: 'the world document is invalid' };
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
    super(first.path, `${first.path || 'document'}: ${first.message}${more}`);
    this.issues = issues.slice(0, MAX_REPORTED_ISSUES);
    this.issueCount = issues.length;
  }
}

/** Path segments (object keys, array indexes) → `a.b[3].c` / `adults["9"]`. */
export function formatPath(segments: readonly (string | number)[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(s)) out += out ? `.${s}` : s;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}
