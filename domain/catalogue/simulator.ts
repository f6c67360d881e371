export const SIMULATOR_MODES = ['CONFIRM_IMMEDIATELY', 'CONFIRM_AFTER', 'NEVER_CONFIRM'] as const;
export type SimulatorMode = (typeof SIMULATOR_MODES)[number];

/** How the property-system simulator answers for one listing (seed data, sandbox only). */
export interface SimulatorBehaviour {
  readonly listingId: string;
  readonly mode: SimulatorMode;
  /** For CONFIRM_AFTER: seconds (scaled by TIME_SCALE) before the booking lands; else 0. */
  readonly confirmAfterSeconds: number;
  /** The channel manager refuses an amendment. */
  readonly refusesChanges: boolean;
  /** The channel cannot modify a reservation at all (cancel and rebook). */
  readonly cannotModify: boolean;
  /** Connected to Channex: bookings go out through the Channex adapter (docs/channel-manager.md); absent = the stage's default. */
  readonly channelManager?: 'channex';
}

export const DEFAULT_SIMULATOR: Omit<SimulatorBehaviour, 'listingId'> = {
  mode: 'CONFIRM_IMMEDIATELY',
  confirmAfterSeconds: 0,
  refusesChanges: false,
  cannotModify: false,
};
