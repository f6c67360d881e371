import { keys } from '../keys.ts';

/* The Unbilled item: present while a booking may have unbilled work (PK = GROUP#<g>, SK = UNBILLED#<booking>), put by each posting with its version moved. */
export const unbilledEntity = {
  name: 'Unbilled',
  key: keys.unbilled,
  conditions: {
    /** Settled by a run only at the version it read (`#version` → version, `:v`): a posting since keeps it for the next run. */
    versionAt: '#version = :v',
  },
} as const;
