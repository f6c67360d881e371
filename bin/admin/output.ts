import type { ApiKeyRecord } from '../../domain/api-key.ts';
import { toRupees } from '../../domain/money.ts';
import { paymentTermsOf, type AgentGroup, type Partner } from '../../domain/tenants.ts';

export interface Streams {
  write(text: string): void;
}

/** Where a command's result goes: human lines, or one JSON document with --json. */
export class Output {
  constructor(
    readonly json: boolean,
    private readonly stdout: Streams,
    private readonly stderr: Streams = { write: () => undefined },
  ) {}

  /** Prints the JSON document with --json, otherwise the human lines. */
  result(machine: unknown, human: () => readonly string[]): void {
    if (this.json) this.stdout.write(`${JSON.stringify(machine, null, 2)}\n`);
    else this.stdout.write(`${human().join('\n')}\n`);
  }

  /** A line printed as soon as it is known (one per group of a long run); silent with --json, whose one document comes at the end. */
  progress(line: string): void {
    if (!this.json) this.stdout.write(`${line}\n`);
  }

  /**
   * Reports a long write's progress on stderr, a line per chunk (also with --json, whose
   * stdout stays one document); an import of one chunk says nothing here.
   */
  writeProgress(verb: string, now: () => number = Date.now): (written: number, total: number) => void {
    const started = now();
    return (written, total) => {
      const percent = total === 0 ? 100 : Math.floor((written / total) * 100);
      this.stderr.write(`${verb} ${written}/${total} catalogue records (${percent} %), ${((now() - started) / 1000).toFixed(1)} s\n`);
    };
  }
}

/*
 * The views below pick fields by name rather than spreading stored records, so nothing
 * added to an item later (hashes, exposure counters, encrypted secrets) can leak into
 * output. Money leaves as rupees.
 */

export const partnerView = (p: Partner) => ({ partnerId: p.partnerId, name: p.name, channelId: p.channelId, createdAt: p.createdAt, updatedAt: p.updatedAt });

export const agentGroupView = (g: AgentGroup) => ({
  agentGroupId: g.agentGroupId,
  partnerId: g.partnerId,
  name: g.name,
  channelId: g.channelId,
  creditLimit: toRupees(g.creditLimit),
  onHold: g.onHold,
  distributionEnabled: g.distributionEnabled,
  billingCycle: g.billingCycle,
  billingAnchorDay: g.billingAnchorDay,
  paymentTermsDays: paymentTermsOf(g),
  overdueHoldDays: g.overdueHoldDays ?? null,
  gstin: g.gstin,
  legalName: g.legalName,
  address: {
    line1: g.address.line1,
    ...(g.address.line2 ? { line2: g.address.line2 } : {}),
    city: g.address.city,
    state: g.address.state,
    postalCode: g.address.postalCode,
    country: g.address.country,
  },
  createdAt: g.createdAt,
  updatedAt: g.updatedAt,
});

export const keyView = (k: ApiKeyRecord) => ({
  keyId: k.keyId,
  keyPrefix: k.keyPrefix,
  owner: { kind: k.owner.kind, id: k.owner.id },
  status: k.status,
  label: k.label,
  rateLimit: k.rateLimit ? { perMinute: k.rateLimit.perMinute, burst: k.rateLimit.burst } : null,
  createdAt: k.createdAt,
  revokedAt: k.revokedAt,
});

export const ownerLabel = (owner: ApiKeyRecord['owner']): string => `${owner.kind === 'partner' ? 'partner' : 'agent group'} ${owner.id}`;

export const rateLimitLabel = (k: ApiKeyRecord): string => (k.rateLimit ? `${k.rateLimit.perMinute}/min, burst ${k.rateLimit.burst}` : 'default');
