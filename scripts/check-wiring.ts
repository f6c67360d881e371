import { join, relative } from 'node:path';
import ts from 'typescript';
import { stageFunctions } from '../bench/cold-load.ts';
import { AREA_OF } from '../infra/compose/core.ts';
import { buildFunctions } from './build-functions.ts';
import { ROOT } from './local-stack.ts';

/**
 * `npm run check:wiring` (run by CI): each function's entry wires the adapter groups its code
 * reads, and no others (infra/compose/core.ts, wire). What a function reads is every member of
 * `Services` read anywhere in its bundle (esbuild's metafile lists the bundle's files; the
 * TypeScript checker finds the reads, through `Pick<Services, …>` too): a superset of what it
 * reads at run time, so a wiring that passes never meets NotWiredError, and a group no file of
 * the bundle reads is reported as surplus, since its adapters would only weigh on the cold start.
 * test/unit/check-wiring.test.ts runs both halves on a small program held in memory.
 */

function isServices(type: ts.Type): boolean {
  const name = type.aliasSymbol?.name ?? type.symbol?.name;
  if (name === 'Services') return true;
  if (type.aliasSymbol?.name === 'Pick') {
    const of = type.aliasTypeArguments?.[0];
    return of !== undefined && isServices(of);
  }
  return false;
}

/** What a spread of Services (`{ ...svc }`) reads: every member. */
export const EVERY_MEMBER = '...';

/** What one source file reads of `Services`, and the areas of the groups it passes to `wire()`. */
export interface FileWiring {
  readonly reads: ReadonlySet<string>;
  readonly wires: ReadonlySet<string>;
}

/** Each file of `program` under `root` (relative path) that reads a member of Services or calls wire(). */
export function wiringOf(program: ts.Program, root: string): Map<string, FileWiring> {
  const checker = program.getTypeChecker();
  const out = new Map<string, FileWiring>();
  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile || !sf.fileName.startsWith(root) || sf.fileName.includes('/node_modules/')) continue;
    const file = relative(root, sf.fileName);
    const reads = new Set<string>();
    const wires = new Set<string>();
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) && isServices(checker.getTypeAtLocation(node.expression))) reads.add(node.name.text);
      // A spread reads every member, the groups not wired too (their makers throw): never right in a function.
      else if ((ts.isSpreadAssignment(node) || ts.isSpreadElement(node)) && isServices(checker.getTypeAtLocation(node.expression))) reads.add(EVERY_MEMBER);
      else if (ts.isObjectBindingPattern(node) && isServices(checker.getTypeAtLocation(node)))
        for (const e of node.elements) reads.add((e.propertyName ?? e.name).getText(sf));
      else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'wire')
        for (const arg of node.arguments) {
          // A spread argument (`wire(...ALL_ADAPTERS)`) wires the areas its elements' type names.
          const arrayType = ts.isSpreadElement(arg) ? checker.getTypeAtLocation(arg.expression) : undefined;
          const groupType = arrayType ? checker.getIndexTypeOfType(arrayType, ts.IndexKind.Number) : checker.getTypeAtLocation(arg);
          const areas = (groupType?.isUnion() ? groupType.types : groupType ? [groupType] : []).map((t) => {
            const area = t.getProperty('area');
            const type = area && checker.getTypeOfSymbolAtLocation(area, arg);
            return type?.isStringLiteral() ? type.value : undefined;
          });
          if (areas.length === 0 || areas.some((a) => a === undefined))
            throw new Error(`${file}: wire() takes adapter groups, each named with adapterGroup(); cannot read the area of ${arg.getText(sf)}`);
          for (const a of areas) wires.add(a!);
        }
      ts.forEachChild(node, visit);
    };
    visit(sf);
    if (reads.size || wires.size) out.set(file, { reads, wires });
  }
  return out;
}

/** A function's verdict: the groups its bundle's files read but its entry does not wire, and those it wires that none reads. */
export interface Verdict {
  readonly wired: readonly string[];
  /** Each missing area with the reads that need it (`member (file)`). */
  readonly missing: ReadonlyMap<string, readonly string[]>;
  readonly surplus: readonly string[];
}

export function verdictOf(files: readonly string[], wiring: ReadonlyMap<string, FileWiring>, areaOf: Readonly<Record<string, string>>): Verdict {
  const needed = new Map<string, string[]>();
  for (const file of files)
    for (const read of wiring.get(file)?.reads ?? [])
      for (const member of read === EVERY_MEMBER ? Object.keys(areaOf) : [read]) {
        const area = areaOf[member];
        if (!area || area === 'core') continue;
        needed.set(area, [...(needed.get(area) ?? []), `${read === EVERY_MEMBER ? `${member} in a spread of Services` : member} (${file})`]);
      }
  const wired = new Set(files.flatMap((f) => [...(wiring.get(f)?.wires ?? [])]));
  return {
    wired: [...wired].sort(),
    missing: new Map([...needed].filter(([a]) => !wired.has(a)).sort(([a], [b]) => a.localeCompare(b))),
    surplus: [...wired].filter((a) => !needed.has(a)).sort(),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { metafile } = await buildFunctions({ write: false });
  const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, ROOT);
  const wiring = wiringOf(ts.createProgram(parsed.fileNames, parsed.options), ROOT);
  let failures = 0;
  for (const fn of stageFunctions()) {
    const entry = `${fn.module}.ts`;
    const output = Object.values(metafile.outputs).find((o) => o.entryPoint === entry);
    if (!output) throw new Error(`no bundle for ${entry} in the build`);
    const { wired, missing, surplus } = verdictOf(Object.keys(output.inputs), wiring, AREA_OF);
    const wrong = missing.size > 0 || surplus.length > 0;
    if (wrong) failures++;
    console.log(`${fn.name.padEnd(22)} ${(wrong ? 'WRONG' : 'ok').padEnd(5)} wires ${wired.join(', ') || '(core only)'}`);
    for (const [a, reads] of missing) console.log(`  missing ${a}: read as ${[...new Set(reads)].slice(0, 3).join('; ')}`);
    for (const a of surplus) console.log(`  surplus ${a}: no file of the bundle reads its members`);
  }
  if (failures) {
    console.log(`\n${failures} function(s) wired wrong: name the groups in the entry's wire(...) (infra/compose/core.ts)`);
    process.exitCode = 1;
  } else console.log('\nevery function wires the adapter groups its code reads, and no others');
}
