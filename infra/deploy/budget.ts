/**
 * The deploy budget (docs/deploy.md "Deploy budget"): CloudFormation refuses a stack of more
 * than 500 resources and a template body of more than 1 MB ("CloudFormation quotas": Resources,
 * Template body size in an S3 object). Each stage's packaged template stays well inside both,
 * so the next function or route cannot be the one that fails a deploy.
 */
export const DEPLOY_BUDGET = { resources: 350, bytes: 450 * 1024 } as const;

/** A template's size in whole KB, as the budget and the stage check print it (file sizes, never money). */
export const kilobytes = (bytes: number): number => Math.round(bytes / 1024);

export interface TemplateFigures {
  readonly resources: number;
  readonly bytes: number;
  /** Resources per CloudFormation type, most first: where a template's weight is. */
  readonly byType: readonly (readonly [string, number])[];
}

export function templateFigures(text: string): TemplateFigures {
  const template = JSON.parse(text) as { Resources?: Record<string, { Type: string }> };
  const counts = new Map<string, number>();
  for (const r of Object.values(template.Resources ?? {})) counts.set(r.Type, (counts.get(r.Type) ?? 0) + 1);
  return {
    resources: Object.keys(template.Resources ?? {}).length,
    bytes: Buffer.byteLength(text, 'utf8'),
    byType: [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
  };
}

/** What breaks the budget, as sentences; empty when the template is inside it. Bytes are counted as the template file is written. */
export function budgetProblems(f: TemplateFigures, budget: { resources: number; bytes: number } = DEPLOY_BUDGET): string[] {
  const problems: string[] = [];
  if (f.resources > budget.resources) problems.push(`${f.resources} resources, over the budget of ${budget.resources} (CloudFormation's limit is 500)`);
  if (f.bytes > budget.bytes) problems.push(`${kilobytes(f.bytes)} KB, over the budget of ${kilobytes(budget.bytes)} KB (CloudFormation's limit is 1 MB)`);
  return problems;
}
