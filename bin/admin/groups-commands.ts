import { createAgentGroup, updateAgentGroup, type AgentGroupUpdate, type NewAgentGroup } from '../../domain/admin.ts';
import { ValidationError } from '../../domain/errors.ts';
import { billToOf, billToOffer, checkRecipientGstin } from '../../domain/invoicing/recipient-gstin.ts';
import type { Taxpayer } from '../../domain/ports/e-invoice-registry.ts';
import { DEFAULT_PAYMENT_TERMS_DAYS, paymentTermsOf, type AgentGroup, type PostalAddress } from '../../domain/tenants.ts';
import { columns, type CommandSpec, type OptionSpec, type ParsedArgs } from './command.ts';
import { billingCycleOption, booleanOption, CLEAR, distributionOption, gstinOption, integerOption, rupeesOption, textOption } from './input.ts';
import { agentGroupView } from './output.ts';
import { formatInr } from '../../domain/money.ts';

const ID_RULE = "2–63 characters of a–z, 0–9 and '-'";

const ADDRESS_OPTIONS: readonly OptionSpec[] = [
  { name: 'address-line1', value: '<text>', required: true, param: 'address.line1', description: 'Registered address, first line (as on the GST invoice).' },
  { name: 'address-line2', value: '<text>', param: 'address.line2', description: 'Registered address, second line.' },
  { name: 'city', value: '<city>', required: true, param: 'address.city', description: 'City.' },
  {
    name: 'state',
    value: '<state>',
    required: true,
    param: 'address.state',
    description: 'Indian state or union territory, as on a GST invoice (e.g. Maharashtra).',
  },
  { name: 'postal-code', value: '<PIN>', required: true, param: 'address.postalCode', description: 'PIN code.' },
  { name: 'country', value: '<code>', param: 'address.country', description: 'Country code (IN when left out).' },
];

export const groupsCreate: CommandSpec = {
  path: ['groups', 'create'],
  summary: 'Create an agent group under a partner: a team of agents that books on credit through /v1.',
  details:
    "Credit limits are in rupees (paise allowed: 1999.50). --anchor-day is the day the billing cycle closes: 1–28 for MONTHLY, 1–7 (Mon–Sun) for WEEKLY and FORTNIGHTLY. A GSTIN is checked with the IRP (Get GSTIN details) first: unknown, cancelled, inactive or blocked is refused with the IRP's words; a legal name and address of the IRP's that differ are offered (groups update --use-irp-details).",
  options: [
    { name: 'id', value: '<groupId>', required: true, param: 'agentGroupId', description: `Agent group id, ${ID_RULE}.` },
    { name: 'partner', value: '<partnerId>', required: true, param: 'partnerId', description: 'The partner the group belongs to (must exist).' },
    { name: 'name', value: '<name>', required: true, param: 'name', description: 'Display name.' },
    { name: 'channel', value: '<channelId>', required: true, param: 'channelId', description: 'The channel whose listings and rates the group books.' },
    {
      name: 'credit-limit',
      value: '<rupees>',
      required: true,
      param: 'creditLimit',
      description: 'Credit limit in rupees, zero or more, at most two decimals.',
    },
    { name: 'on-hold', param: 'onHold', description: 'Create the group on hold (bookings refused until released).' },
    { name: 'distribution', value: 'enabled|disabled', param: 'distributionEnabled', description: "Whether the group's keys open /v1 (default enabled)." },
    { name: 'billing-cycle', value: 'WEEKLY|FORTNIGHTLY|MONTHLY', required: true, param: 'billingCycle', description: 'How often the group is invoiced.' },
    {
      name: 'anchor-day',
      value: '<n>',
      required: true,
      param: 'billingAnchorDay',
      description: 'Day the cycle closes: 1–28 (MONTHLY) or 1–7, Monday = 1 (WEEKLY, FORTNIGHTLY).',
    },
    { name: 'gstin', value: '<GSTIN>', param: 'gstin', description: "The group's GSTIN (15 characters), if registered." },
    {
      name: 'payment-terms',
      value: '<days>',
      param: 'paymentTermsDays',
      description: `Days from an invoice's issue to its due date (default ${DEFAULT_PAYMENT_TERMS_DAYS}).`,
    },
    {
      name: 'overdue-hold',
      value: '<days>',
      param: 'overdueHoldDays',
      description: 'Credit control: an invoice overdue by more than this many days puts the account on hold until paid (default: never).',
    },
    { name: 'legal-name', value: '<name>', required: true, param: 'legalName', description: 'Legal name, as on the GST invoice.' },
    ...ADDRESS_OPTIONS,
  ],
  examples: [
    'groups create --id acme-north --partner acme-travel --name "Acme North" --channel acme --credit-limit 500000 --billing-cycle MONTHLY --anchor-day 1 --gstin 27AAPFU0939F1ZV --legal-name "Acme Travel North Pvt Ltd" --address-line1 "12 Marine Drive" --city Mumbai --state Maharashtra --postal-code 400020',
  ],
  async run(args, ctx) {
    const address: PostalAddress = {
      line1: args.required('address-line1').trim(),
      ...(args.text('address-line2')?.trim() ? { line2: args.text('address-line2')!.trim() } : {}),
      city: args.required('city').trim(),
      state: args.required('state').trim(),
      postalCode: args.required('postal-code').trim(),
      country: args.text('country')?.trim().toUpperCase() ?? 'IN',
    };
    const distribution = args.text('distribution');
    const gstin = args.text('gstin');
    const input: NewAgentGroup = {
      agentGroupId: args.required('id'),
      partnerId: args.required('partner'),
      name: args.required('name').trim(),
      channelId: args.required('channel'),
      creditLimit: rupeesOption('credit-limit', args.required('credit-limit')),
      onHold: args.flag('on-hold'),
      distributionEnabled: distribution === undefined ? true : distributionOption('distribution', distribution),
      billingCycle: billingCycleOption('billing-cycle', args.required('billing-cycle')),
      billingAnchorDay: integerOption('anchor-day', args.required('anchor-day')),
      gstin: gstin === undefined ? null : gstinOption(gstin),
      ...(args.text('payment-terms') === undefined ? {} : { paymentTermsDays: integerOption('payment-terms', args.text('payment-terms')!) }),
      ...(args.text('overdue-hold') === undefined ? {} : { overdueHoldDays: overdueHoldOption(args.text('overdue-hold')!) }),
      legalName: args.required('legal-name').trim(),
      address,
    };
    const taxpayer = input.gstin ? await checkRecipientGstin(ctx.services().eInvoices, input.gstin) : undefined;
    const group = await createAgentGroup(ctx.deps(), input);
    const offer = taxpayer && billToOffer(taxpayer, group);
    ctx.out.result({ ...agentGroupView(group), ...(offer ? { irpBillToOffer: offer } : {}) }, () => [
      `Created agent group ${group.agentGroupId} under partner ${group.partnerId}.`,
      ...describeGroup(group),
      ...offerLines(group.agentGroupId, offer),
    ]);
  },
};

export const groupsList: CommandSpec = {
  path: ['groups', 'list'],
  summary: "List agent groups, all of them or one partner's.",
  options: [{ name: 'partner', value: '<partnerId>', description: "Only this partner's groups." }],
  examples: ['groups list', 'groups list --partner acme-travel --json'],
  async run(args, ctx) {
    const groups = await ctx.deps().tenants.listAgentGroups(args.text('partner'));
    ctx.out.result(groups.map(agentGroupView), () =>
      groups.length === 0
        ? ['No agent groups found.']
        : columns(
            [
              ['ID', 'PARTNER', 'CHANNEL', 'CREDIT LIMIT', 'HOLD', 'DISTRIBUTION', 'BILLING', 'NAME'],
              ...groups.map((g) => [
                g.agentGroupId,
                g.partnerId,
                g.channelId,
                formatInr(g.creditLimit),
                g.onHold ? 'on hold' : '-',
                g.distributionEnabled ? 'enabled' : 'disabled',
                `${g.billingCycle}/${g.billingAnchorDay}`,
                g.name,
              ]),
            ],
            '',
          ),
    );
  },
};

const UPDATE_WORDING: Readonly<Record<string, string>> = {
  'address-line2': `Registered address, second line; ${CLEAR} removes it.`,
  country: 'Country code.',
};
const UPDATABLE_ADDRESS: readonly OptionSpec[] = ADDRESS_OPTIONS.map((o) => ({ ...o, required: false, description: UPDATE_WORDING[o.name] ?? o.description }));

export const groupsUpdate: CommandSpec = {
  path: ['groups', 'update'],
  summary: 'Change an agent group: credit limit, hold, distribution access, name, GSTIN, legal name or address.',
  details: `Only the options given change; the rest stay as they are. Use --gstin ${CLEAR} to remove a GSTIN, --address-line2 ${CLEAR} to remove the second line. A new GSTIN is checked with the IRP first: unknown, cancelled, inactive or blocked is refused with the IRP's words. Turning distribution off locks the group's keys out of /v1 at once; a hold refuses new bookings.`,
  positional: { name: 'groupId', param: 'agentGroupId', description: 'The agent group to change.' },
  options: [
    { name: 'credit-limit', value: '<rupees>', param: 'creditLimit', description: 'New credit limit in rupees, zero or more, at most two decimals.' },
    { name: 'on-hold', value: 'true|false', param: 'onHold', description: 'Put the group on hold, or release it.' },
    { name: 'distribution', value: 'enabled|disabled', param: 'distributionEnabled', description: "Open or close /v1 for the group's keys." },
    { name: 'name', value: '<name>', param: 'name', description: 'Display name.' },
    { name: 'gstin', value: `<GSTIN>|${CLEAR}`, param: 'gstin', description: "The group's GSTIN, or none to remove it." },
    { name: 'legal-name', value: '<name>', param: 'legalName', description: 'Legal name, as on the GST invoice.' },
    { name: 'payment-terms', value: '<days>', param: 'paymentTermsDays', description: "Days from an invoice's issue to its due date." },
    {
      name: 'overdue-hold',
      value: `<days>|${CLEAR}`,
      param: 'overdueHoldDays',
      description: 'Credit control: hold the account while an invoice is overdue by more than this many days; none to stop holding automatically.',
    },
    {
      name: 'use-irp-details',
      description:
        "Take the legal name and address the IRP's Get GSTIN details gives for the group's GSTIN as its bill-to (the operator's confirmation of the offer).",
    },
    ...UPDATABLE_ADDRESS,
  ],
  examples: [
    'groups update acme-north --credit-limit 750000',
    'groups update acme-north --on-hold true',
    'groups update acme-north --distribution disabled --json',
  ],
  async run(args, ctx) {
    let update: AgentGroupUpdate = { ...changesFrom(args), address: addressChangesFrom(args) };
    let taxpayer: Taxpayer | undefined;
    if (args.flag('use-irp-details')) {
      const gstin = update.gstin ?? (await ctx.deps().tenants.getAgentGroup(args.positional!))?.gstin;
      if (!gstin) throw new ValidationError('use-irp-details', 'use-irp-details needs a GSTIN: give --gstin, or set one on the group first.');
      taxpayer = await checkRecipientGstin(ctx.services().eInvoices, gstin);
      const billTo = billToOf(taxpayer);
      if (!billTo)
        throw new ValidationError(
          'use-irp-details',
          `The IRP gives no legal name and address for ${gstin}: give --legal-name and the address options instead.`,
        );
      update = { ...update, legalName: billTo.legalName, address: { ...billTo.address, line2: billTo.address.line2 ?? '' } };
    } else if (update.gstin) {
      taxpayer = await checkRecipientGstin(ctx.services().eInvoices, update.gstin);
    }
    const group = await updateAgentGroup(ctx.deps(), args.positional!, update);
    const offer = taxpayer && billToOffer(taxpayer, group);
    ctx.out.result({ ...agentGroupView(group), ...(offer ? { irpBillToOffer: offer } : {}) }, () => [
      `Updated agent group ${group.agentGroupId}.`,
      ...describeGroup(group),
      ...offerLines(group.agentGroupId, offer),
    ]);
  },
};

/** The IRP's legal name and address for the group's GSTIN, offered: the operator confirms by running the printed command. */
function offerLines(groupId: string, offer: ReturnType<typeof billToOffer>): string[] {
  if (!offer) return [];
  const a = offer.address;
  return [
    '',
    `The IRP has this GSTIN as ${offer.legalName}, ${[a.line1, a.line2, a.city, a.state, a.postalCode].filter(Boolean).join(', ')}; the group's bill-to differs.`,
    `To bill to the IRP's name and address: npm run admin -- groups update ${groupId} --use-irp-details`,
  ];
}

function changesFrom(args: ParsedArgs): Omit<AgentGroupUpdate, 'address'> {
  const creditLimit = args.text('credit-limit');
  const onHold = args.text('on-hold');
  const distribution = args.text('distribution');
  const gstin = args.text('gstin');
  return {
    creditLimit: creditLimit === undefined ? undefined : rupeesOption('credit-limit', creditLimit),
    onHold: onHold === undefined ? undefined : booleanOption('on-hold', onHold),
    distributionEnabled: distribution === undefined ? undefined : distributionOption('distribution', distribution),
    gstin: gstin === undefined ? undefined : gstin.trim().toLowerCase() === CLEAR ? null : gstinOption(gstin),
    name: textOption(args.text('name')),
    legalName: textOption(args.text('legal-name')),
    paymentTermsDays: args.text('payment-terms') === undefined ? undefined : integerOption('payment-terms', args.text('payment-terms')!),
    overdueHoldDays: args.text('overdue-hold') === undefined ? undefined : overdueHoldOption(args.text('overdue-hold')!),
  };
}

function addressChangesFrom(args: ParsedArgs): Partial<PostalAddress> {
  const line2 = textOption(args.text('address-line2'));
  return {
    line1: textOption(args.text('address-line1')),
    line2: line2?.toLowerCase() === CLEAR ? '' : line2,
    city: textOption(args.text('city')),
    state: textOption(args.text('state')),
    postalCode: textOption(args.text('postal-code')),
    country: textOption(args.text('country'))?.toUpperCase(),
  };
}

function describeGroup(g: AgentGroup): string[] {
  return columns([
    ['Partner', g.partnerId],
    ['Name', g.name],
    ['Channel', g.channelId],
    ['Credit limit', formatInr(g.creditLimit)],
    ['On hold', g.onHold ? 'yes' : 'no'],
    ['Distribution', g.distributionEnabled ? 'enabled' : 'disabled'],
    ['Billing', `${g.billingCycle}, closes on day ${g.billingAnchorDay}; invoices due in ${paymentTermsOf(g)} days`],
    ['GSTIN', g.gstin ?? '(none)'],
    ['Legal name', g.legalName],
    ['Address', [g.address.line1, g.address.line2, g.address.city, g.address.state, g.address.postalCode, g.address.country].filter(Boolean).join(', ')],
  ]);
}

/** Days, or `none` for no automatic hold. */
const overdueHoldOption = (text: string): number | null => (text.trim().toLowerCase() === CLEAR ? null : integerOption('overdue-hold', text));
