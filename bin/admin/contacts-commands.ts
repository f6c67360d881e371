import { ValidationError } from '../../domain/errors.ts';
import {
  addContact,
  clearAddressFlag,
  indexContactAddresses,
  listContacts,
  OPTIONAL_DOCUMENTS,
  removeContact,
  requireGroup,
  setMailPaused,
  updateContact,
  type FinanceContactView,
} from '../../domain/mail/finance-contacts.ts';
import { columns, type CommandSpec, type OptionSpec, type ParsedArgs } from './command.ts';

const GROUP: OptionSpec = { name: 'group', value: '<groupId>', required: true, param: 'agentGroupId', description: 'The agent group.' };
const CONTACT: OptionSpec = {
  name: 'contact',
  value: '<contactId>',
  required: true,
  param: 'contactId',
  description: 'The contact id (contacts list shows it).',
};
const FIELDS: readonly OptionSpec[] = [
  { name: 'email', value: '<address>', param: 'email', description: 'The e-mail address (never written to the audit trail).' },
  { name: 'name', value: '<name>', param: 'name', description: "How e-mails address the contact; 'none' for no name." },
  {
    name: 'documents',
    value: `<${OPTIONAL_DOCUMENTS.join(',')}|none>`,
    param: 'documents',
    description: 'The optional documents the contact receives (invoices and credit notes always go to every contact). Default on add: all.',
  },
];

const documentsOption = (args: ParsedArgs): string[] | undefined => {
  const given = args.text('documents');
  if (given === undefined) return undefined;
  if (given.trim().toLowerCase() === 'none') return [];
  const list = given.split(',').map((d) => d.trim().toUpperCase());
  if (list.some((d) => d === ''))
    throw new ValidationError('documents', `documents must be a comma-separated list of ${OPTIONAL_DOCUMENTS.join(', ')}, or none.`);
  return list;
};
const nameOption = (args: ParsedArgs): string | null | undefined => {
  const given = args.text('name');
  return given === undefined ? undefined : given.trim().toLowerCase() === 'none' ? null : given;
};

const contactLines = (contacts: readonly FinanceContactView[]): string[] =>
  contacts.length === 0
    ? ['No finance contacts: nothing is e-mailed to this group.']
    : columns([
        ['CONTACT', 'EMAIL', 'DOCUMENTS', 'STATE', 'NAME'],
        ...contacts.map((c) => [c.id, c.email, c.documents.join(','), c.bounced ? 'bounced' : 'ok', c.name ?? '-']),
      ]);

export const contactsList: CommandSpec = {
  path: ['contacts', 'list'],
  summary: "List an agent group's finance contacts: who receives its invoices, receipts, reminders and statements by e-mail.",
  options: [GROUP],
  examples: ['contacts list --group acme-north'],
  async run(args, ctx) {
    const group = args.required('group');
    await requireGroup(ctx.deps().tenants, group);
    const contacts = await listContacts(ctx.services(), group);
    const settings = await ctx.services().financeContacts.get(group);
    ctx.out.result({ agentGroupId: group, paused: settings?.paused ?? false, contacts }, () => [
      ...(settings?.paused ? ['E-mail to this group is PAUSED by an operator (mail resume to restart).'] : []),
      ...contactLines(contacts),
    ]);
  },
};

export const contactsAdd: CommandSpec = {
  path: ['contacts', 'add'],
  summary: 'Add a finance contact to an agent group (at most 10 per group).',
  options: [GROUP, { ...FIELDS[0]!, required: true }, FIELDS[1]!, FIELDS[2]!],
  examples: [
    'contacts add --group acme-north --email accounts@acme.example.in --name "Accounts Payable"',
    'contacts add --group acme-north --email cfo@acme.example.in --documents STATEMENTS',
  ],
  async run(args, ctx) {
    const group = args.required('group');
    await requireGroup(ctx.deps().tenants, group);
    const name = nameOption(args);
    const documents = documentsOption(args);
    const added = await addContact(
      ctx.services(),
      group,
      { email: args.required('email'), ...(name !== undefined ? { name } : {}), ...(documents ? { documents } : {}) },
      ctx.origin(),
    );
    ctx.out.result(added, () => [`Added finance contact ${added.id} to ${group}: ${added.documents.join(', ')}.`]);
  },
};

export const contactsUpdate: CommandSpec = {
  path: ['contacts', 'update'],
  summary: "Change a finance contact's address, name or optional documents (--documents without REMINDERS opts out of reminders).",
  options: [GROUP, CONTACT, ...FIELDS],
  examples: ['contacts update --group acme-north --contact 3f0c…-… --documents RECEIPTS,STATEMENTS'],
  async run(args, ctx) {
    const group = args.required('group');
    await requireGroup(ctx.deps().tenants, group);
    const name = nameOption(args);
    const documents = documentsOption(args);
    const email = args.text('email');
    const changed = await updateContact(
      ctx.services(),
      group,
      args.required('contact'),
      { ...(email !== undefined ? { email } : {}), ...(name !== undefined ? { name } : {}), ...(documents ? { documents } : {}) },
      ctx.origin(),
    );
    ctx.out.result(changed, () => [`Changed finance contact ${changed.id} of ${group}: ${changed.documents.join(', ')}.`]);
  },
};

export const contactsRemove: CommandSpec = {
  path: ['contacts', 'remove'],
  summary: 'Remove a finance contact from an agent group.',
  options: [GROUP, CONTACT],
  examples: ['contacts remove --group acme-north --contact 3f0c…-…'],
  async run(args, ctx) {
    const group = args.required('group');
    await requireGroup(ctx.deps().tenants, group);
    await removeContact(ctx.services(), group, args.required('contact'), ctx.origin());
    ctx.out.result({ agentGroupId: group, removed: args.required('contact') }, () => [`Removed finance contact ${args.required('contact')} from ${group}.`]);
  },
};

export const contactsUnflag: CommandSpec = {
  path: ['contacts', 'unflag'],
  summary: "Clear a finance contact's bounce or complaint flag once its address is known to work again (a changed address clears it by itself).",
  options: [GROUP, CONTACT],
  examples: ['contacts unflag --group acme-north --contact 3f0c…-…'],
  async run(args, ctx) {
    const group = args.required('group');
    await requireGroup(ctx.deps().tenants, group);
    const cleared = await clearAddressFlag(ctx.services(), group, args.required('contact'), ctx.origin());
    ctx.out.result(cleared, () => [`Finance contact ${cleared.id} of ${group} receives e-mail again.`]);
  },
};

export const contactsIndexAddresses: CommandSpec = {
  path: ['contacts', 'index-addresses'],
  summary:
    'Write the address lookup a bounce or complaint is matched by for finance contacts stored before it existed (every group, or one); safe to run again: a second run writes nothing.',
  options: [{ ...GROUP, required: false, description: 'Only this agent group (default: every group).' }],
  examples: ['contacts index-addresses', 'contacts index-addresses --group acme-north'],
  async run(args, ctx) {
    const group = args.text('group');
    const r = await indexContactAddresses({ financeContacts: ctx.services().financeContacts, tenants: ctx.deps().tenants }, group);
    ctx.out.result(r, () => [`${r.written} address lookup item(s) written for ${r.contacts} contact(s) of ${r.groups} group(s); the rest were there already.`]);
  },
};

const pauseCommand = (paused: boolean): CommandSpec => ({
  path: ['mail', paused ? 'pause' : 'resume'],
  summary: paused
    ? "Pause every e-mail to an agent group's finance contacts (invoices included) until mail resume."
    : "Resume e-mail to an agent group's finance contacts after mail pause.",
  options: [GROUP],
  examples: [`mail ${paused ? 'pause' : 'resume'} --group acme-north`],
  async run(args, ctx) {
    const group = args.required('group');
    await requireGroup(ctx.deps().tenants, group);
    const settings = await setMailPaused(ctx.services(), group, paused, ctx.origin());
    ctx.out.result({ agentGroupId: group, paused: settings.paused }, () => [`E-mail to ${group} is ${paused ? 'paused' : 'resumed'}.`]);
  },
});

export const mailPause = pauseCommand(true);
export const mailResume = pauseCommand(false);
