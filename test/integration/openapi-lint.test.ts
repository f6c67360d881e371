import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/*
 * Redocly's recommended rules (redocly.yaml) over the committed document, which
 * test/unit/openapi.test.ts keeps equal to what the route table generates. Telemetry and the
 * update check are off. The CLI is fetched on first use (npx, pinned), not installed by
 * `npm ci`: this check is its only user (docs/local-development.md, "Install weight").
 */
const REDOCLY_CLI = '@redocly/cli@2.77.0';

describe('OpenAPI lint', () => {
  it.each(['docs/openapi.json', 'docs/openapi.partner.json'])(
    "%s passes Redocly's recommended rules with no error and no warning",
    async (file) => {
      const { stdout } = await promisify(execFile)(
        'npx',
        ['--yes', '--loglevel=error', REDOCLY_CLI, 'lint', file, '--config', 'redocly.yaml', '--format', 'json'],
        {
          cwd: root,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
          maxBuffer: 16 * 1024 * 1024,
        },
      );
      const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; message: string }[];
      };

      expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    },
    300_000,
  );
});
