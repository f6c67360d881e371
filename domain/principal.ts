/** Who is calling: what an API key resolves to. Every repository read takes one of these. */
export interface PartnerPrincipal {
  readonly kind: 'partner';
  readonly partnerId: string;
  /** The channel whose catalogue and rates this partner reads. */
  readonly channelId: string;
  readonly keyId: string;
  readonly keyPrefix: string;
}

export interface AgentGroupPrincipal {
  readonly kind: 'agent-group';
  readonly agentGroupId: string;
  /** The partner owning the group: booking callbacks are recorded under it. */
  readonly partnerId: string;
  readonly channelId: string;
  readonly keyId: string;
  readonly keyPrefix: string;
  /** Sandbox: the group's test clock, if it has one; its requests then run at that clock's time. */
  readonly testClockId?: string;
}

export type Principal = PartnerPrincipal | AgentGroupPrincipal;

/** Which surface a key opens: `/api` keys belong to partners, `/v1` keys to agent groups. */
export type Surface = 'api' | 'v1';

export const surfaceOf = (p: Principal): Surface => (p.kind === 'partner' ? 'api' : 'v1');
