import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';

/** CloudFormation short tags serverless.yml uses, as scalars or sequences. */
const CFN_TAGS = ['!GetAtt', '!Ref', '!Sub', '!Join', '!If', '!Not', '!Equals'];

const ROOT = new URL('../../', import.meta.url);

/** A YAML file of the service with its CloudFormation short tags (!GetAtt, !Ref, …) read as plain values, anchors and merge keys (`<<`) expanded. */
function readYaml(path: string): any {
  const tags = CFN_TAGS.flatMap((tag) => [
    { tag, resolve: (v: unknown) => ({ [tag]: v }) },
    { tag, collection: 'seq' as const, resolve: (v: unknown) => ({ [tag]: v }) },
  ]);
  const doc = parseDocument(readFileSync(new URL(path, ROOT), 'utf8'), { customTags: tags, merge: true });
  if (doc.errors.length > 0) throw new Error(doc.errors.map((e) => e.message).join('\n'));
  return doc.toJS({ maxAliasCount: -1 });
}

const FILE_REF = /^\$\{file\(\.\/([^)]+)\)\}$/;
/** `${file(./path):key}`: one top-level entry of a YAML file (the generated functions, the area functions' HTTP events). */
const FILE_KEY_REF = /^\$\{file\(\.\/([^)]+)\):([A-Za-z0-9]+)\}$/;

/** A value as the framework resolves it: a `${file(…):key}` reference read from its file, anything else as written. */
function resolveFileKey(value: unknown): unknown {
  const ref = typeof value === 'string' ? FILE_KEY_REF.exec(value) : null;
  if (!ref) return value;
  const resolved = readYaml(ref[1]!)[ref[2]!];
  if (resolved === undefined) throw new Error(`${value}: no such entry`);
  return resolved;
}

/** A function's `events` as the framework resolves them. */
function eventsOf(events: unknown): unknown {
  const resolved = resolveFileKey(events);
  if (!Array.isArray(resolved)) throw new Error(`${events}: no such list of events`);
  return resolved;
}

/**
 * serverless.yml as the framework reads it: its `resources` are a list of files
 * (`${file(./infra/deploy/resources/…)}`), merged here into one `{ Conditions, Resources, Outputs }`
 * as serverless merges them; `functions` (infra/deploy/functions.yml, generated from the manifests) and a
 * function's `events` given as `${file(./…):name}` are read from their files. Other variables (`${param:…}`, `${sls:stage}`) stay as written.
 */
export function serverlessYaml(): any {
  const doc = readYaml('serverless.yml');
  const parts: Record<string, Record<string, unknown>>[] = (Array.isArray(doc.resources) ? doc.resources : [doc.resources]).map((r: unknown) => {
    const ref = typeof r === 'string' ? FILE_REF.exec(r) : null;
    return ref ? readYaml(ref[1]!) : r;
  });
  const merged: Record<string, Record<string, unknown>> = {};
  for (const part of parts) {
    for (const [section, entries] of Object.entries(part)) {
      for (const name of Object.keys(entries)) if (merged[section]?.[name] !== undefined) throw new Error(`resources: ${section}.${name} is declared twice`);
      merged[section] = { ...merged[section], ...entries };
    }
  }
  const functions = Object.fromEntries(
    Object.entries(resolveFileKey(doc.functions) as Record<string, Record<string, unknown>>).map(([name, fn]) => [
      name,
      'events' in fn ? { ...fn, events: eventsOf(fn.events) } : fn,
    ]),
  );
  return { ...doc, functions, resources: merged };
}
