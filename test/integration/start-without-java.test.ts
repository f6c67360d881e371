import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { javaProblem, LOCAL_SETTINGS, localSettings, ROOT } from '../../scripts/local-stack.ts';

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

describe('npm start settings', () => {
  it('takes every service setting from the environment when set there, and its local default otherwise', () => {
    const settings = localSettings({
      OUTBOUND_ALLOW_HOSTS: 'hooks.staging.example',
      OUTBOUND_ALLOW_HTTP: 'false',
      TIME_SCALE: '60',
      BOOKING_WINDOW_SECONDS: '',
      PATH: '/bin',
    });

    expect(settings).toEqual({ ...LOCAL_SETTINGS, OUTBOUND_ALLOW_HOSTS: 'hooks.staging.example', OUTBOUND_ALLOW_HTTP: 'false', TIME_SCALE: '60' });
    expect(Object.keys(LOCAL_SETTINGS)).toEqual(
      expect.arrayContaining([
        'OUTBOUND_ALLOW_HOSTS',
        'OUTBOUND_ALLOW_HTTP',
        'TIME_SCALE',
        'BOOKING_WINDOW_SECONDS',
        'BOOKING_SYNC_WAIT_MS',
        'BOOKING_WATCH_SECONDS',
      ]),
    );
  });

  it('refuses a bad setting from the environment, naming it, before starting anything', () => {
    const out = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/start.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME ?? '/tmp', HTTP_PORT: '0', OUTBOUND_ALLOW_HTTP: 'sometimes' },
      encoding: 'utf8',
      timeout: 60_000,
    });

    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/OUTBOUND_ALLOW_HTTP/);
    expect(out.stdout).not.toMatch(/DynamoDB Local/);
  });
});
