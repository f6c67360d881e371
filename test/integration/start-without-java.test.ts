import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { javaProblem, ROOT } from '../../scripts/local-stack.ts';

describe('npm start without Java', () => {
  it('says Java is missing and exits non-zero before starting anything', () => {
    // prepare: a PATH with node but no java
    const nodeDir = dirname(process.execPath);

    // act
    const out = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/start.ts'], {
      cwd: ROOT,
      env: { PATH: nodeDir, HOME: process.env.HOME ?? '/tmp', HTTP_PORT: '0' },
      encoding: 'utf8',
      timeout: 60_000,
    });

    // assess
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/Java was not found on PATH\. DynamoDB Local needs Java 17 or newer/);
  });

  it('finds the Java this machine has', () => {
    expect(javaProblem()).toBeUndefined();
  });
});
