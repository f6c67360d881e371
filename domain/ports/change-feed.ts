import type { ChangeRecord } from '../deliveries/catalogue-event.ts';
import type { Page } from './delivery-store.ts';

/** Per-channel change feed, oldest first; what a partner polls when it prefers polling to webhooks. */
export interface ChangeFeed {
  appendAll(records: readonly ChangeRecord[]): Promise<void>;
  /**
   * Records of `channelId` after the position `after` (from a previous page's `next`), or
   * recorded at or after `since` when there is no position. `next` is always set, so a
   * poller can come back for what is recorded later.
   */
  read(channelId: string, query: { after?: string; since: string; size: number }): Promise<Page<ChangeRecord> & { readonly next: string }>;
}
