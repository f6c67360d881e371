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
 */
const TYPE_NAMES = new Set(['Services']);

function isServices(type: ts.Type): boolean {
  const name = type.aliasSymbol?.name ?? type.symbol?.name;
  if (name && TYPE_NAMES.has(name)) return true;
  if (type.aliasSymbol?.name === 'Pick') {
    const of = type.aliasTypeArguments?.[0];
    return of !== undefined && isServices(of);
  }
  return false;
}

const { metafile } = await buildFunctions({ write: false });
const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, ROOT);
const program = ts.createProgram(parsed.fileNames, parsed.options);
const checker = program.getTypeChecker();

/** Members of Services each project file reads. */
const readsOf = new Map<string, Set<string>>();
/** The areas of the groups each file passes to wire(). */
const wiresOf = new Map<string, Set<string>>();
for (const sf of program.getSourceFiles()) {
  if (sf.isDeclarationFile || !sf.fileName.startsWith(ROOT) || sf.fileName.includes('/node_modules/')) continue;
  const file = relative(ROOT, sf.fileName);
  const reads = new Set<string>();
  const wires = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && isServices(checker.getTypeAtLocation(node.expression))) reads.add(node.name.text);
    else if (ts.isObjectBindingPattern(node) && isServices(checker.getTypeAtLocation(node)))
      for (const e of node.elements) reads.add((e.propertyName ?? e.name).getText(sf));
    else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'wire')
      for (const arg of node.arguments) {
        const area = checker.getTypeAtLocation(arg).getProperty('area');
        const type = area && checker.getTypeOfSymbolAtLocation(area, arg);
        if (type?.isStringLiteral()) wires.add(type.value);
        else throw new Error(`${file}: wire() takes adapter groups, each named with adapterGroup(); cannot read the area of ${arg.getText(sf)}`);
      }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (reads.size) readsOf.set(file, reads);
  if (wires.size) wiresOf.set(file, wires);
}

const areaOf = AREA_OF as Record<string, string>;
let failures = 0;
for (const fn of stageFunctions()) {
  const entry = `${fn.module}.ts`;
  const output = Object.values(metafile.outputs).find((o) => o.entryPoint === entry);
  if (!output) throw new Error(`no bundle for ${entry} in the build`);
  const files = Object.keys(output.inputs);
  const needed = new Map<string, string[]>();
  for (const file of files)
    for (const member of readsOf.get(file) ?? []) {
      const area = areaOf[member];
      if (!area || area === 'core') continue;
      needed.set(area, [...(needed.get(area) ?? []), `${member} (${file})`]);
    }
  const wired = new Set(files.flatMap((f) => [...(wiresOf.get(f) ?? [])]));
  const missing = [...needed.keys()].filter((a) => !wired.has(a)).sort();
  const surplus = [...wired].filter((a) => !needed.has(a)).sort();
  const verdict = missing.length || surplus.length ? 'WRONG' : 'ok';
  if (verdict !== 'ok') failures++;
  console.log(`${fn.name.padEnd(22)} ${verdict.padEnd(5)} wires ${[...wired].sort().join(', ') || '(core only)'}`);
  for (const a of missing) console.log(`  missing ${a}: read as ${[...new Set(needed.get(a))].slice(0, 3).join('; ')}`);
  for (const a of surplus) console.log(`  surplus ${a}: no file of the bundle reads its members`);
}
if (failures) {
  console.log(`\n${failures} function(s) wired wrong: name the groups in the entry's wire(...) (infra/compose/core.ts)`);
  process.exitCode = 1;
} else console.log('\nevery function wires the adapter groups its code reads, and no others');
