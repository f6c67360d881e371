import { createDocumentClient } from '../../infra/dynamo/client.ts';
import { DynamoSearchProjection, noDrift } from '../../infra/dynamo/dynamo-search-projection.ts';
import type { CommandSpec } from './command.ts';

export const searchRebuild: CommandSpec = {
  path: ['search', 'rebuild'],
  summary: "Recompute a channel's search projection from the catalogue and report how the stored one had drifted.",
  details: [
    'Search reads a per-channel projection (docs/search.md) that imports, syncs, bookings and cancellations keep up to date in the same flow.',
    'This reads every listing the channel distributes and every stored month of their properties, compares the result with the stored projection, and replaces it.',
    'Run it for every channel after deploying a release that changes the projection version; a search on a channel whose projection is missing or of another version rebuilds it first.',
    'Drift: listings and property months missing, extra or different (units, or restrictions and rates). A clean projection reports none.',
  ].join('\n'),
  positional: { name: 'channelId', description: 'The channel whose projection to rebuild.' },
  options: [],
  examples: ['search rebuild ota-web', 'search rebuild ota-web --json'],
  async run(args, ctx) {
    const config = ctx.config();
    const db = createDocumentClient(config);
    try {
      const started = Date.now();
      const report = await new DynamoSearchProjection(db, config.tableName, ctx.services().catalogue).rebuild(args.positional!);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const { listings: l, cards: c, offers: o, propertyMonths: m } = report;
      ctx.out.result({ ...report, drift: !noDrift(report), seconds: Number(seconds) }, () => [
        `Rebuilt the search projection of channel ${report.channelId}: ${report.places} places, ${report.shards} shards, ${report.itemsWritten} items written in ${seconds} s.`,
        noDrift(report)
          ? 'No drift: the stored projection matched the catalogue.'
          : [
              'Drift found and repaired:',
              report.headStale ? '  head: missing or of another projection version' : '',
              `  listings: ${l.missing} missing, ${l.extra} extra, ${l.changed} changed`,
              `  cards: ${c.missing} missing, ${c.extra} extra, ${c.changed} changed`,
              `  bank offers: ${o.missing} missing, ${o.extra} extra, ${o.changed} changed`,
              `  property months: ${m.missing} missing, ${m.extra} extra, ${m.unitsChanged} with other units, ${m.restChanged} with other restrictions or rates`,
            ]
              .filter(Boolean)
              .join('\n'),
      ]);
    } finally {
      db.destroy();
    }
  },
};
