import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';

/** CloudFormation short tags serverless.yml uses, as scalars or sequences. */
const CFN_TAGS = ['!GetAtt', '!Ref', '!Sub', '!Join', '!If', '!Not', '!Equals'];

/** serverless.yml with its CloudFormation short tags (!GetAtt, !Ref, …) read as plain values, anchors expanded. */
export function serverlessYaml(): any {
  const tags = CFN_TAGS.flatMap((tag) => [
    { tag, resolve: (v: unknown) => ({ [tag]: v }) },
    { tag, collection: 'seq' as const, resolve: (v: unknown) => ({ [tag]: v }) },
  ]);
  const doc = parseDocument(readFileSync(new URL('../../serverless.yml', import.meta.url), 'utf8'), { customTags: tags });
  if (doc.errors.length > 0) throw new Error(doc.errors.map((e) => e.message).join('\n'));
  return doc.toJS({ maxAliasCount: -1 });
}
