import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLOUD_STAGES, pipelineSettings } from '../../infra/deploy/stage-secret.ts';

/**
 * The GitHub Actions pipeline (.github/workflows) checked here, so a broken pipeline fails CI
 * before it reaches GitHub: every file passes action-validator (the workflow schema, offline,
 * fetched from npm on first use, pinned, as only this check needs it), and the deploy chain
 * keeps the properties docs/deploy.md promises.
 */
const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
const DIR = join(ROOT, '.github/workflows');
const VALIDATOR = '@action-validator/cli@0.6.0';
const files = readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f));
const workflow = (name: string): any => parse(readFileSync(join(DIR, name), 'utf8'));

async function validate(path: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('npx', ['--yes', '--loglevel=error', VALIDATOR, path], { cwd: ROOT });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

describe('pipeline workflows', () => {
  it.each(files)(
    '%s passes action-validator',
    async (file) => {
      const result = await validate(join(DIR, file));

      expect(result.output).toBe('');
      expect(result.code).toBe(0);
    },
    180_000,
  );

  it('action-validator does reject a broken workflow (the check above can fail)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pds-workflow-'));
    const broken = readFileSync(join(DIR, 'deploy-stage.yml'), 'utf8').replace('cancel-in-progress: false', 'cancel-in-progress: sometimes');
    writeFileSync(join(dir, 'broken.yml'), broken);

    const result = await validate(join(dir, 'broken.yml'));

    expect(result.code).toBe(1);
    expect(result.output).toContain('cancel-in-progress');
  }, 180_000);

  it('runs .ci/run on every push and deploys dev → staging → prod from main only', () => {
    const pipeline = workflow('pipeline.yml');
    expect(Object.keys(pipeline.on)).toContain('push');
    expect(pipeline.on.push).toBeNull();
    expect(pipeline.jobs.ci.steps.map((s: { run?: string }) => s.run ?? '').join('\n')).toContain('bash .ci/run');

    const chain = CLOUD_STAGES.map((stage) => pipeline.jobs[`deploy-${stage}`]);
    expect(chain.map((job) => job.with.stage)).toEqual(['dev', 'staging', 'prod']);
    expect(chain.map((job) => job.needs)).toEqual(['ci', 'deploy-dev', 'deploy-staging']);
    expect(chain[0].if).toBe("github.ref == 'refs/heads/main'");
    for (const job of chain) {
      expect(job.uses).toBe('./.github/workflows/deploy-stage.yml');
      expect(existsSync(join(ROOT, job.uses))).toBe(true);
      expect(job.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    }
  });

  it('deploys each stage in its own GitHub environment, one at a time, by OIDC, smoke-checked and rolled back on failure', () => {
    const job = workflow('deploy-stage.yml').jobs.deploy;
    expect(job.environment.name).toBe('${{ inputs.stage }}');
    expect(job.concurrency).toEqual({ group: 'deploy-${{ inputs.stage }}', 'cancel-in-progress': false });

    const steps = job.steps as { name?: string; uses?: string; run?: string; if?: string; id?: string; with?: Record<string, string> }[];
    const aws = steps.find((s) => s.uses?.startsWith('aws-actions/configure-aws-credentials'));
    expect(aws?.with).toMatchObject({ 'role-to-assume': '${{ vars.AWS_DEPLOY_ROLE_ARN }}' });
    expect(Object.keys(aws?.with ?? {})).not.toContain('aws-access-key-id');

    const order = (id: string) => steps.findIndex((s) => s.id === id);
    const deploy = steps.findIndex((s) => s.run?.includes('serverless deploy'));
    expect(order('previous')).toBeLessThan(deploy);
    expect(steps[deploy]!.run).toContain('--param="secretVersionId=${{ steps.secret.outputs.version }}"');
    expect(order('smoke')).toBeGreaterThan(deploy);
    expect(steps[order('smoke')]!.run).toContain('scripts/smoke-check.ts');

    const rollback = steps.at(-1)!;
    expect(rollback.if).toBe("failure() && steps.smoke.outcome == 'failure' && steps.previous.outputs.timestamp != ''");
    expect(rollback.run).toContain('serverless rollback --stage "$STAGE" --region "$AWS_REGION" --timestamp "${{ steps.previous.outputs.timestamp }}"');
  });

  it('keeps AWS keys out of every workflow', () => {
    for (const file of files) {
      const text = readFileSync(join(DIR, file), 'utf8');
      expect(text, file).not.toMatch(/aws-access-key-id|aws-secret-access-key|AWS_SECRET_ACCESS_KEY|secrets\.AWS/);
    }
  });

  it("docs/deploy.md's policies are valid JSON and name what the pipeline and the bootstrap use", () => {
    const doc = readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8');
    const blocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!));
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const text = JSON.stringify(blocks);
    // Only jobs running in the stage's GitHub environment may assume the stage's role.
    expect(text).toContain('repo:<org>/<repo>:environment:<stage>');
    expect(text).toContain('sts:AssumeRoleWithWebIdentity');
    // The deploy role can read the stage secret (dynamic references and smoke keys), as bootstrap names it.
    expect(text).toContain('secret:partner-distribution/<stage>-*');
    expect(pipelineSettings('dev', 'ap-south-1', undefined).join('\n')).toContain('role/partner-distribution-deploy-dev');
    expect(doc).toContain('`partner-distribution-deploy-<stage>`');
  });
});
