import { createPartner } from '../../domain/admin.ts';
import { columns, type CommandSpec } from './command.ts';
import { partnerView } from './output.ts';

const ID_RULE = "2–63 characters of a–z, 0–9 and '-'";

export const partnersCreate: CommandSpec = {
  path: ['partners', 'create'],
  summary: 'Onboard a partner: a company that reads the catalogue through /api and receives catalogue webhooks.',
  options: [
    { name: 'id', value: '<partnerId>', required: true, param: 'partnerId', description: `Partner id, ${ID_RULE}.` },
    { name: 'name', value: '<name>', required: true, param: 'name', description: 'Display name.' },
    { name: 'channel', value: '<channelId>', required: true, param: 'channelId', description: 'The channel whose catalogue and rates the partner reads.' },
  ],
  examples: ['partners create --id acme-travel --name "Acme Travel" --channel acme'],
  async run(args, ctx) {
    const partner = await createPartner(ctx.deps(), {
      partnerId: args.required('id'),
      name: args.required('name').trim(),
      channelId: args.required('channel'),
    });
    ctx.out.result(partnerView(partner), () => [`Created partner ${partner.partnerId} (${partner.name}) on channel ${partner.channelId}.`]);
  },
};

export const partnersList: CommandSpec = {
  path: ['partners', 'list'],
  summary: 'List every partner.',
  options: [],
  examples: ['partners list', 'partners list --json'],
  async run(_args, ctx) {
    const partners = await ctx.deps().tenants.listPartners();
    ctx.out.result(partners.map(partnerView), () =>
      partners.length === 0
        ? ['No partners yet.']
        : columns([['ID', 'NAME', 'CHANNEL', 'CREATED'], ...partners.map((p) => [p.partnerId, p.name, p.channelId, p.createdAt])], ''),
    );
  },
};
