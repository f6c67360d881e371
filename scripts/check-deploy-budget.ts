import { readFileSync } from 'node:fs';
import { budgetProblems, DEPLOY_BUDGET, kilobytes, templateFigures } from '../infra/deploy/budget.ts';

/**
 * Every packaged CloudFormation template given as an argument (scripts/check-stages.sh passes
 * dev, staging and prod) against the deploy budget (infra/deploy/budget.ts); prints each
 * stage's figures, and fails when one is over.
 */
let failed = false;
for (const file of process.argv.slice(2)) {
  const figures = templateFigures(readFileSync(file, 'utf8'));
  const problems = budgetProblems(figures);
  const top = figures.byType
    .slice(0, 4)
    .map(([type, n]) => `${n} ${type}`)
    .join(', ');
  console.log(
    `deploy budget ${file}: ${figures.resources}/${DEPLOY_BUDGET.resources} resources, ${kilobytes(figures.bytes)}/${kilobytes(DEPLOY_BUDGET.bytes)} KB (${top}, …)`,
  );
  for (const p of problems) console.error(`${file}: ${p}`);
  failed ||= problems.length > 0;
}
if (process.argv.length <= 2) {
  console.error('usage: check-deploy-budget <packaged template.json>…');
  failed = true;
}
process.exit(failed ? 1 : 0);
