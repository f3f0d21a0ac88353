/**
 * Whether the user has worked on the page since the holder last told the server: edits,
 * typing, clicks, scrolling the grid. Not focus, and not the mouse merely moving over the page:
 * a pointer resting on a screen nobody looks at would keep the lock forever. Listeners hear of
 * each activity (the idle countdown ends at the first one).
 */
export class ActivityTracker {
  private active = false;
  private readonly listeners = new Set<() => void>();

  note = (): void => {
    this.active = true;
    for (const listener of this.listeners) listener();
  };

  /** Whether there was activity since the last call; starts over. */
  take(): boolean {
    const active = this.active;
    this.active = false;
    return active;
  }

  /** Keeps an activity for the next call of `take`: the server did not hear of it after all. */
  unreported(): void {
    this.active = true;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}
