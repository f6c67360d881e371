import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { verdictOf, wiringOf } from '../../scripts/check-wiring.ts';

/**
 * `npm run check:wiring`'s two halves on a small program held in memory: the reads of Services
 * and the wire() calls the type checker finds, and the verdict over one bundle's files.
 */
const ROOT = '/virtual';
const FILES: Record<string, string> = {
  [`${ROOT}/core.ts`]: `
export interface Services { readonly config: string; readonly invoices: number; readonly bookings: number; readonly people: number }
export interface AdapterGroup<A extends string> { readonly area: A }
export const billingAdapters: AdapterGroup<'billing'> = { area: 'billing' };
export const bookingAdapters: AdapterGroup<'bookings'> = { area: 'bookings' };
export function wire(...groups: readonly AdapterGroup<string>[]): void { void groups; }
`,
  [`${ROOT}/handler.ts`]: `
import type { Services } from './core.ts';
export const total = (svc: Services) => svc.invoices + svc.config.length;
export const person = (svc: Pick<Services, 'people'>) => svc.people;
export const destructured = ({ bookings }: Services) => bookings;
export const notServices = (other: { invoices: number; people: number }) => other.invoices + other.people;
`,
  [`${ROOT}/spread.ts`]: `
import type { Services } from './core.ts';
export const copy = (svc: Services) => ({ ...svc, extra: 1 });
`,
  [`${ROOT}/entry.ts`]: `
import { billingAdapters, wire } from './core.ts';
wire(billingAdapters);
`,
};
const AREAS = { config: 'core', invoices: 'billing', bookings: 'bookings', people: 'console' };

function program(): ts.Program {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile, directoryExists } = host;
  host.directoryExists = (d) => d === ROOT || directoryExists?.call(host, d) === true;
  host.fileExists = (f) => f in FILES || fileExists.call(host, f);
  host.readFile = (f) => FILES[f] ?? readFile.call(host, f);
  host.getSourceFile = (f, lang, ...rest) => (f in FILES ? ts.createSourceFile(f, FILES[f]!, lang) : getSourceFile.call(host, f, lang, ...rest));
  return ts.createProgram(Object.keys(FILES), options, host);
}

describe('Function: wiringOf', () => {
  it("finds the members of Services each file reads (directly, through Pick, destructured) and the areas of the groups it wires, and nothing of another type's members", () => {
    // act
    const wiring = wiringOf(program(), ROOT);

    // assess
    expect([...(wiring.get('handler.ts')?.reads ?? [])].sort()).toEqual(['bookings', 'config', 'invoices', 'people']);
    expect([...(wiring.get('entry.ts')?.wires ?? [])]).toEqual(['billing']);
    expect(wiring.get('entry.ts')?.reads.size).toBe(0);
  });
});

describe('Function: verdictOf', () => {
  const wiring = wiringOf(program(), ROOT);

  it("names each group the bundle's files read and its entry does not wire, with the reads that need it", () => {
    // act
    const verdict = verdictOf(['handler.ts', 'entry.ts', 'core.ts'], wiring, AREAS);

    // assess
    expect(verdict.wired).toEqual(['billing']);
    expect([...verdict.missing.keys()]).toEqual(['bookings', 'console']);
    expect(verdict.missing.get('console')).toEqual(['people (handler.ts)']);
    expect(verdict.surplus).toEqual([]);
  });

  it('names a group wired that no file of the bundle reads as surplus', () => {
    // act
    const verdict = verdictOf(['entry.ts', 'core.ts'], wiring, AREAS);

    // assess
    expect(verdict.missing.size).toBe(0);
    expect(verdict.surplus).toEqual(['billing']);
  });

  it('takes a spread of Services as a read of every member, so the bundle needs every group', () => {
    // act
    const verdict = verdictOf(['spread.ts', 'entry.ts'], wiring, AREAS);

    // assess
    expect([...verdict.missing.keys()]).toEqual(['bookings', 'console']);
    expect(verdict.missing.get('console')).toEqual(['people in a spread of Services (spread.ts)']);
  });
});
