import type { PayLinkRefreshes } from '../../../domain/ports/pay-link-refreshes.ts';

/** The pay link asks a use case made, in order, by group: what a rule test checks instead of a queue. */
export class RecordedPayLinkAsks implements PayLinkRefreshes {
  readonly asked: string[] = [];

  async ask(agentGroupId: string): Promise<void> {
    this.asked.push(agentGroupId);
  }
}
