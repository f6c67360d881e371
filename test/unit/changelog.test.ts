import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../functions/openapi/build.ts';
import { ROUTES } from '../../functions/registry.ts';
import { CHANGELOG_FILE, contractChanges, readJson, RELEASED_FILE, unmentionedChanges, unreleasedSection } from '../../scripts/contract-diff.ts';

type Doc = Record<string, unknown>;
const op = (extra: Record<string, unknown> = {}) => ({
  operationId: 'listThings',
  summary: 'Things',
  description: 'All the things.',
  tags: ['Things'],
  parameters: [{ name: 'size', in: 'query', required: false, description: 'Page size.', schema: { type: 'string' } }],
  responses: {
    200: {
      description: 'OK',
      content: { 'application/json': { schema: { type: 'object', properties: { description: { type: 'string', description: 'The thing, described.' } } } } },
    },
  },
  ...extra,
});
const doc = (paths: Record<string, unknown>, webhooks: Record<string, unknown> = {}): Doc => ({
  openapi: '3.1.0',
  info: { title: 'T', version: '1', description: 'Overview.' },
  paths,
  webhooks,
});

describe('Contract changelog', () => {
  it('names in CHANGELOG.md every operation whose contract changed since the last release (docs/openapi.released.json)', () => {
    const changes = contractChanges(readJson(RELEASED_FILE), buildOpenApi(ROUTES));

    const missing = unmentionedChanges(changes, readFileSync(CHANGELOG_FILE, 'utf8'));

    expect(
      missing,
      'the contract changed without a CHANGELOG line: name each operation below as `METHOD /path` under "## Unreleased" in CHANGELOG.md (docs/versioning.md)',
    ).toEqual([]);
  });

  it('sees added, removed and changed operations and calls, but not reworded prose', () => {
    const released = doc({ '/things': { get: op() }, '/old': { get: op() } }, { thingChanged: { post: op() } });
    const reworded = doc(
      { '/things': { get: op({ summary: 'Every thing', description: 'Reworded.' }) }, '/old': { get: op() } },
      { thingChanged: { post: op({ tags: ['Other'] }) } },
    );
    const changed = doc(
      { '/things': { get: op({ parameters: [{ name: 'size', in: 'query', required: true, schema: { type: 'string' } }] }), post: op() } },
      { thingChanged: { post: op({ responses: { 204: { description: 'Done' } } }) } },
    );

    expect(contractChanges(released, reworded)).toEqual([]);
    expect(contractChanges(released, changed)).toEqual([
      { key: 'GET /old', change: 'removed' },
      { key: 'GET /things', change: 'changed' },
      { key: 'POST /things', change: 'added' },
      { key: 'webhook thingChanged', change: 'changed' },
    ]);
  });

  it('counts a field named description as contract, and its description as prose', () => {
    const released = doc({ '/things': { get: op() } });
    const withoutField = structuredClone(released);
    const schema = (withoutField.paths as any)['/things'].get.responses[200].content['application/json'].schema;
    const rewordedField = structuredClone(released);
    (rewordedField.paths as any)['/things'].get.responses[200].content['application/json'].schema.properties.description.description = 'Reworded.';
    schema.properties = {};

    expect(contractChanges(released, withoutField)).toEqual([{ key: 'GET /things', change: 'changed' }]);
    expect(contractChanges(released, rewordedField)).toEqual([]);
  });

  it('accepts a change only when the Unreleased section names it, not an older release', () => {
    const changes = [
      { key: 'POST /things', change: 'added' as const },
      { key: 'webhook thingChanged', change: 'changed' as const },
    ];
    const named = '# Changelog\n\n## Unreleased\n\n- `POST /things`: new.\n- `thingChanged` carries `size`.\n\n## 1.0.0 — 2026-11-26\n\n- `GET /things`\n';
    const inOldRelease = '# Changelog\n\n## Unreleased\n\n## 1.0.0 — 2026-11-26\n\n- `POST /things`, `thingChanged`\n';

    expect(unmentionedChanges(changes, named)).toEqual([]);
    expect(unmentionedChanges(changes, inOldRelease)).toEqual(changes);
    expect(unreleasedSection('# C\n\n## Unreleased\n- last line')).toBe('- last line');
    expect(() => unreleasedSection('# Changelog\n\n## 1.0.0\n')).toThrow(/Unreleased/);
  });
});
