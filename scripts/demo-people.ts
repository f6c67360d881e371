import { operatorOrigin } from '../domain/audit/audit-event.ts';
import type { Access } from '../domain/console/people.ts';
import { recordPerson } from '../domain/console/sign-in.ts';
import { ConflictError } from '../domain/errors.ts';
import { operatorConfig } from '../infra/aws-client.ts';
import { parseConfig } from '../infra/config.ts';
import { buildServices } from '../infra/container.ts';

/** The console's demo people (local stage): they sign in by a link the local mailbox receives. */
export const DEMO_PEOPLE: readonly { readonly email: string; readonly access: Access; readonly note: string }[] = [
  {
    email: 'admin@tripkart.example',
    access: { kind: 'partner', agentGroupId: 'tripkart-agents', partnerId: 'tripkart', role: 'admin' },
    note: 'partner admin of tripkart-agents',
  },
  {
    email: 'finance@tripkart.example',
    access: { kind: 'partner', agentGroupId: 'tripkart-agents', partnerId: 'tripkart', role: 'finance' },
    note: 'finance clerk of tripkart-agents',
  },
  { email: 'ops@villas.example', access: { kind: 'operator', role: 'finance-operator' }, note: 'operator (finance): every group, hold and release' },
];

/** Records the demo people; one already recorded (a table kept from an earlier start) stays as it is. */
export async function loadDemoPeople(env: Record<string, string>): Promise<void> {
  const svc = buildServices(operatorConfig(parseConfig(env)));
  const inviter = { actor: 'demo-load', name: 'demo-load', origin: operatorOrigin('demo-load', 'seed') };
  for (const p of DEMO_PEOPLE) {
    try {
      await recordPerson(svc, inviter, p.email, p.access);
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
    }
  }
}
