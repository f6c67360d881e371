export interface Clock {
  now(): Date;
  /**
   * Set on a sandbox test clock's time: its id. Documents dated on it take numbers from the
   * clock's own series, never from one shared with groups on real time (docs/sandbox.md).
   */
  readonly testClockId?: string;
}
