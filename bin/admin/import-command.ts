import { readFile } from 'node:fs/promises';
import { checkWorldGstins } from '../../domain/invoicing/recipient-gstin.ts';
import { resolve } from 'node:path';
import { IMPORT_KINDS, importWorld, type ImportSummary } from '../../domain/world/import-world.ts';
import { columns, UsageError, type CommandSpec } from './command.ts';

export async function readWorldFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new UsageError(code === 'ENOENT' ? `<file>: ${path} does not exist.` : `<file>: cannot read ${path} (${code ?? 'unreadable'}).`, '<file>');
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`<file>: ${path} is not valid JSON (${(err as Error).message}). World files are JSON; see docs/world-file.md.`, '<file>');
  }
}

const dateCount = (changes: ImportSummary['changes']['inventory']): number => changes.reduce((n, c) => n + c.dates.length, 0);

/**
 * What `--json` prints: counts, not the change set itself. A 5,000-listing world changes
 * 600,000 property-dates, which as JSON is 32 MB that no operator reads (and which filled the
 * pipe of a caller reading stdout); partners learn the dates from the change feed and webhooks.
 */
export function summaryReport(summary: ImportSummary) {
  return {
    written: summary.written,
    unchanged: summary.unchanged,
    changes: {
      changed: Object.fromEntries(Object.entries(summary.changes.changed).map(([kind, ids]) => [kind, ids.length])),
      inventoryDates: dateCount(summary.changes.inventory),
      rateDates: dateCount(summary.changes.rates),
    },
  };
}

export function summaryLines(path: string, summary: ImportSummary): string[] {
  const kinds = IMPORT_KINDS.filter((k) => summary.written[k] + summary.unchanged[k] > 0);
  const written = IMPORT_KINDS.reduce((n, k) => n + summary.written[k], 0);
  return [
    written === 0
      ? `Imported ${path}: everything was already as the file describes; nothing written.`
      : `Imported ${path}: ${written} record${written === 1 ? '' : 's'} written.`,
    ...(kinds.length
      ? ['', ...columns([['KIND', 'WRITTEN', 'UNCHANGED'], ...kinds.map((k) => [k, String(summary.written[k]), String(summary.unchanged[k])])])]
      : []),
    '',
    `Inventory changed on ${dateCount(summary.changes.inventory)} property-date(s), rates on ${dateCount(summary.changes.rates)}.`,
  ];
}

export const importCommand: CommandSpec = {
  path: ['import'],
  summary: 'Import a world file (tenants, keys, channels, catalogue, GST data) into the stack.',
  details: [
    'The whole file is checked before anything is written: a file with any problem writes nothing, and every problem is listed by its JSON path.',
    'Importing the same file again writes nothing; records the file does not mention are left alone.',
    'A long import shows its progress on stderr (records written / total, elapsed). An import that stopped halfway (Ctrl-C, a crash, a storage fault) is finished by importing the same file again.',
    'Plaintext keys and signing secrets in the file are accepted on the local and test stages only; elsewhere give keyHash and keyPrefix.',
    "Agent groups' GSTINs are checked with the IRP (Get GSTIN details) first: unknown, cancelled, inactive or blocked ones are listed and nothing is written.",
    'The format is described in docs/world-file.md.',
  ].join('\n'),
  positional: { name: 'file', description: 'Path of the world file (JSON).' },
  options: [],
  examples: ['import world.json', 'import world.json --json'],
  async run(args, ctx) {
    const path = resolve(ctx.cwd, args.positional!);
    const document = await readWorldFile(path);
    await ctx.begin();
    const services = ctx.services();
    await checkWorldGstins(services.eInvoices, document);
    const summary = await importWorld({ ...ctx.deps(), catalogue: services.catalogue }, document, {
      allowPlaintextKeys: services.config.isSandbox,
      onProgress: ctx.out.writeProgress('Imported'),
    });
    ctx.out.result(summaryReport(summary), () => summaryLines(args.positional!, summary));
  },
};
