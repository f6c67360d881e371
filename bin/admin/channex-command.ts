import { DomainError, NotFoundError } from '../../domain/errors.ts';
import { requestFullSync } from '../../infra/property-system/channex-property-system.ts';
import type { CommandSpec } from './command.ts';

export const channexFullSync: CommandSpec = {
  path: ['channex', 'full-sync'],
  summary: 'Ask Channex to send a listing\'s whole availability, rates and restrictions (Open Channel "Request Full Sync").',
  details: [
    'POSTs provider_code and hotel_code (the listing) to <CHANNEX_BASE_URL>/api/v1/channel_webhooks/open_channel/request_full_sync with the Open Channel api-key.',
    'Channex then streams the property state to /channel-manager/channex/changes/, applied like any other change (docs/channel-manager.md); `search rebuild <channel>` afterwards reports no drift.',
    'Needs CHANNEX_BASE_URL, CHANNEX_API_KEY and CHANNEX_PROVIDER_CODE in the environment (the stage secret holds them).',
  ].join('\n'),
  positional: { name: 'listingId', description: 'The listing (Channex hotel_code) to resynchronise.' },
  options: [],
  examples: ['channex full-sync goa-anjuna-casa-azul', 'channex full-sync goa-anjuna-casa-azul --json'],
  async run(args, ctx) {
    const { channex } = ctx.config();
    if (!channex.baseUrl || !channex.apiKey || !channex.providerCode) {
      throw new DomainError('VALIDATION_FAILED', 'CHANNEX_BASE_URL, CHANNEX_API_KEY and CHANNEX_PROVIDER_CODE must be set to reach Channex.', {
        param: 'CHANNEX_BASE_URL',
      });
    }
    const listingId = args.positional!;
    const [view] = await ctx.services().reader.listingViews([listingId]);
    if (!view) throw new NotFoundError('Listing');
    const answer = await requestFullSync({ apiUrl: channex.baseUrl, apiKey: channex.apiKey, providerCode: channex.providerCode }, listingId);
    if (answer.status >= 300) throw new DomainError('CHANNEL_REFUSED', `Channex answered ${answer.status}: ${answer.body.slice(0, 500)}`);
    ctx.out.result({ listingId, status: answer.status }, () => [
      `Channex accepted the full sync of ${listingId} (${answer.status}); its changes arrive on /channel-manager/channex/changes/.`,
    ]);
  },
};

export const channexIndexConnections: CommandSpec = {
  path: ['channex', 'index-connections'],
  summary: "Index the listings connected to Channex written before the console's list of connections existed (a one-off backfill).",
  details: [
    'Scans the table for listings whose connection says channelManager: channex without the CHANNEX_CONNECTIONS index key, and adds it (docs/data-model.md).',
    'Connections written since carry the key already; running it again indexes nothing. Run once per stage after the deploy that adds the key.',
  ].join('\n'),
  options: [],
  examples: ['channex index-connections', 'channex index-connections --json'],
  async run(_args, ctx) {
    const indexed = await ctx.services().channexInbox.indexConnections();
    ctx.out.result({ indexed }, () => [`Indexed ${indexed} Channex connection(s).`]);
  },
};
