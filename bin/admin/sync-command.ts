import { resolve } from 'node:path';
import { syncCatalogue } from '../../domain/sync/sync-catalogue.ts';
import { syncDeps } from '../../infra/compose/admin.ts';
import type { CommandSpec } from './command.ts';
import { readWorldFile, summaryLines, summaryReport } from './import-command.ts';

export const syncCommand: CommandSpec = {
  path: ['sync'],
  summary: "Apply a catalogue sync from the property system (listings, properties, inventory, rates) and notify partners' webhooks of what changed.",
  details: [
    'A sync file has the world-file format restricted to catalogue.listings, catalogue.inventory and catalogue.rates (docs/world-file.md).',
    'Only real changes are written and announced: listing.updated, property.updated, inventory.changed and rate.changed (with the smallest date window covering the changed dates).',
    'Syncing the same file again writes nothing and sends nothing. A file with any problem writes nothing.',
    'A sync that stopped halfway is finished by syncing the same file again: what it had stored was announced, and the re-run announces the rest once.',
  ].join('\n'),
  positional: { name: 'file', description: 'Path of the sync file (JSON).' },
  options: [],
  examples: ['sync rates-2027-03.json', 'sync listing-update.json --json'],
  async run(args, ctx) {
    const path = resolve(ctx.cwd, args.positional!);
    const document = await readWorldFile(path);
    const result = await syncCatalogue(syncDeps(ctx.services()), document, { onProgress: ctx.out.writeProgress('Synced') });
    ctx.out.result({ ...summaryReport(result.summary), events: result.events }, () => [
      ...summaryLines(args.positional!, result.summary).map((l) => l.replace(/^Imported/, 'Synced')),
      '',
      result.events.length === 0
        ? 'No catalogue events: nothing changed.'
        : `Catalogue events published: ${result.events.map((e) => `${e.eventType} ${e.entityId}${e.fromDate ? ` ${e.fromDate}..${e.toDate}` : ''}`).join('; ')}`,
    ]);
  },
};
