import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classify, COMMANDS } from '../../bin/admin/run-admin.ts';
import { withService } from '../../infra/aws-client.ts';

const spec = COMMANDS.find((c) => c.path.join(' ') === 'partners list')!;

describe('admin failure translation', () => {
  it('a bug names itself with a reference whose file holds the details, never printing them', () => {
    const root = mkdtempSync(join(tmpdir(), 'admin-bug-'));
    const bug = new TypeError("Cannot read properties of undefined (reading 'tableName') table=pds-prod key=AKIA123");

    const failure = classify(bug, spec, root);

    expect(failure).toMatchObject({ exit: 1, code: 'INTERNAL', kind: 'bug', retryable: false });
    expect(failure.message).toMatch(
      /^Bug: 'partners list' failed unexpectedly \(TypeError\); neither your input nor the stack's health caused it, so retrying will not help\. Report reference [0-9TZ-]+-[0-9a-f]{8}; its details are in /,
    );
    expect(failure.message).not.toContain('AKIA123');
    const details = readFileSync(join(root, '.local', 'admin-errors', `${failure.reference}.txt`), 'utf8');
    expect(details).toContain('partners list');
    expect(details).toContain("TypeError: Cannot read properties of undefined (reading 'tableName')");
  });

  it('a timeout of a store after its retries is a storage failure that retrying may fix', () => {
    const timeout = withService(
      Object.assign(new Error('Connection timed out after 30000 ms'), { name: 'TimeoutError', code: 'ETIMEDOUT', $metadata: {} }),
      'SQS',
    );

    expect(classify(timeout, spec, '/nonexistent')).toMatchObject({
      code: 'STORAGE_UNAVAILABLE',
      kind: 'storage',
      retryable: true,
      message: expect.stringMatching(/^Storage: SQS did not cope \(TimeoutError/),
    });
  });
});
