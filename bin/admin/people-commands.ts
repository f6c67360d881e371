import { NotFoundError } from '../../domain/errors.ts';
import { OPERATOR_ROLES, PARTNER_ROLES, type Access } from '../../domain/console/people.ts';
import { invitePerson } from '../../domain/console/sign-in.ts';
import { consoleDeps } from '../../infra/compose/admin.ts';
import { UsageError, type CommandSpec } from './command.ts';

const ROLES = [...PARTNER_ROLES, ...OPERATOR_ROLES] as const;

/**
 * `people invite`: an operator invites a partner's first admin onto a group (that admin then
 * invites their own team in the console) or a colleague as an operator. The invitee gets a
 * sign-in link by e-mail, good once for three days (docs/console.md).
 */
export const peopleInvite: CommandSpec = {
  path: ['people', 'invite'],
  summary: "Invite a person to the console: a partner's first admin onto their group, or an operator.",
  details: `Roles: ${PARTNER_ROLES.join(', ')} (with --group), ${OPERATOR_ROLES.join(', ')} (without). The link is e-mailed; it works once, for 72 hours.`,
  options: [
    { name: 'email', value: '<address>', required: true, description: 'Their work e-mail address: the sign-in link goes there.' },
    { name: 'role', value: '<role>', required: true, description: `One of ${ROLES.join(', ')}.` },
    { name: 'group', value: '<groupId>', description: 'The agent group whose account a partner person works on (partner roles only).' },
  ],
  examples: ['people invite --email finance@acme.example --role admin --group acme-agents', 'people invite --email asha@ourco.example --role finance-operator'],
  async run(args, ctx) {
    const role = args.required('role');
    const group = args.text('group');
    if (!(ROLES as readonly string[]).includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}.`, '--role');
    const isOperator = (OPERATOR_ROLES as readonly string[]).includes(role);
    if (isOperator && group !== undefined) throw new UsageError(`--group is for partner people; an ${role} sees every group. Leave it out.`, '--group');
    if (!isOperator && group === undefined) throw new UsageError(`A ${role} works on one group's account: add --group <groupId>.`, '--group');
    const svc = ctx.services();
    let access: Access;
    if (isOperator) access = { kind: 'operator', role: role as (typeof OPERATOR_ROLES)[number] };
    else {
      const found = await svc.tenants.getAgentGroup(group!);
      if (!found) throw new NotFoundError('Agent group');
      access = { kind: 'partner', agentGroupId: found.agentGroupId, partnerId: found.partnerId, role: role as (typeof PARTNER_ROLES)[number] };
    }
    const origin = ctx.origin();
    const person = await invitePerson(
      consoleDeps(svc, `${ctx.serviceUrl()}/console`),
      { actor: origin.actor, name: origin.actor, origin },
      args.required('email'),
      access,
    );
    ctx.out.result({ personId: person.personId, email: person.email, access: person.access }, () => [
      `Invited ${person.email} as ${role}${group ? ` on group ${group}` : ''}: a sign-in link is on its way (good once, for 72 hours).`,
    ]);
  },
};
