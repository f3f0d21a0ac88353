/** Scheduled change requests as this process hears of them: one scheduled, or moved. */
export interface ScheduleChanges {
  /**
   * Calls `onChanged` when a request is scheduled or moved, and when the feed's connection is
   * back after it dropped (any may have been missed meanwhile).
   */
  onChanged(onChanged: () => void): void;
}
