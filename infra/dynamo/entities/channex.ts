import { ITEM_IS_NEW } from '../items.ts';
import { keys } from '../keys.ts';

/*
 * Channex's items (docs/channel-manager.md): a ChannexRequest per notification received
 * (PK = CHANNEX#REQ#<id>, on GSI1 under its hotel), RECEIVED, then APPLIED or REFUSED once; and a
 * listing's simulator item (PK = LISTING#<id>, SK = SIMULATOR), on GSI2 while Channex manages it.
 * DynamoChannexInbox takes its conditions from here.
 */
export const channexRequestEntity = {
  name: 'ChannexRequest',
  key: keys.channexRequest,
  conditions: {
    /** Receiving a request is its commit point: a redelivered notification finds the first record. */
    isNew: ITEM_IS_NEW,
    /** Finished once (`#status` → status, `:received` → 'RECEIVED'): a second apply of the same request writes nothing. */
    received: '#status = :received',
  },
} as const;

export const channexSimulatorEntity = {
  key: keys.simulator,
  conditions: {
    /** Indexed as a Channex connection only while Channex manages it (`:cx` → 'channex') and it is not indexed yet. */
    unindexedChannex: 'channelManager = :cx AND attribute_not_exists(GSI2PK)',
  },
} as const;
