/** What this page knows of its lease while the API may be out of reach. */
export interface LeaseConnectionState {
  /** When the lease ends at the latest (page clock), if no renewal gets through first. */
  leaseEndsAt: number | null;
  /** The last renewal got no answer from the API. */
  unreachable: boolean;
}

/**
 * The lease as the page last heard of it: a grant sent at `sentAt` lasts until `sentAt` plus
 * the lease at the latest (the server counts from when it received it, later), whatever the
 * clocks of the two machines say. A store, for useSyncExternalStore.
 */
export class LeaseConnection {
  private state: LeaseConnectionState = { leaseEndsAt: null, unreachable: false };
  private readonly listeners = new Set<() => void>();

  constructor(private readonly leaseSeconds: number) {}

  granted(sentAt: number): void {
    this.set({ leaseEndsAt: sentAt + this.leaseSeconds * 1000, unreachable: false });
  }

  unanswered(): void {
    this.set({ ...this.state, unreachable: true });
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): LeaseConnectionState => this.state;

  private set(state: LeaseConnectionState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}
