import { describe, expect, it } from 'vitest';
import { budgetProblems, DEPLOY_BUDGET, templateFigures } from '../../infra/deploy/budget.ts';

const template = (resources: number, pad = 0) =>
  JSON.stringify(
    {
      Resources: Object.fromEntries(Array.from({ length: resources }, (_, i) => [`R${i}`, { Type: i % 2 ? 'AWS::Lambda::Function' : 'AWS::IAM::Role' }])),
      Description: 'x'.repeat(pad),
    },
    null,
    2,
  );

describe('deploy budget (infra/deploy/budget.ts, run over the packaged templates by scripts/check-stages.sh)', () => {
  it('leaves headroom under CloudFormation limits of 500 resources and 1 MB', () => {
    expect(DEPLOY_BUDGET.resources).toBeLessThanOrEqual(350);
    expect(DEPLOY_BUDGET.bytes).toBeLessThanOrEqual(450 * 1024);
  });

  it('counts resources per type and the bytes of the file as written', () => {
    const text = template(5);
    const f = templateFigures(text);
    expect(f.resources).toBe(5);
    expect(f.bytes).toBe(Buffer.byteLength(text));
    expect(f.byType).toEqual([
      ['AWS::IAM::Role', 3],
      ['AWS::Lambda::Function', 2],
    ]);
  });

  it('passes a template at the budget and names each figure over it', () => {
    expect(budgetProblems(templateFigures(template(350)))).toEqual([]);
    expect(budgetProblems(templateFigures(template(351)))).toEqual(["351 resources, over the budget of 350 (CloudFormation's limit is 500)"]);
    const heavy = budgetProblems(templateFigures(template(10, 460 * 1024)));
    expect(heavy).toHaveLength(1);
    expect(heavy[0]).toMatch(/^4\d\d KB, over the budget of 450 KB/);
  });
});
