import { LockError } from '../core/lockError';

/**
 * How many places in line (HTTP waits and waitForTable subscriptions) one principal (a user or
 * an API key) may hold at once in this API process. Each place costs a connection, memory and a
 * retry when the line moves, so one caller must not be able to open thousands.
 */
export class WaiterLimit {
  readonly #places = new Map<string, number>();

  constructor(readonly maxPerPrincipal: number) {}

  /** Takes a place for `principal`, or TOO_MANY_WAITERS; the function returned gives it back. */
  enter(principal: string): () => void {
    const held = this.#places.get(principal) ?? 0;
    if (held >= this.maxPerPrincipal) {
      throw new LockError(
        'TOO_MANY_WAITERS',
        `You are waiting in line ${held} times already, the most allowed; leave a line first.`,
        { maxWaiters: this.maxPerPrincipal },
      );
    }
    this.#places.set(principal, held + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const now = (this.#places.get(principal) ?? 1) - 1;
      if (now === 0) this.#places.delete(principal);
      else this.#places.set(principal, now);
    };
  }
}

/** Whose place a waiter takes, and the limit it counts against. */
export interface WaiterAdmission {
  limit: WaiterLimit;
  /** The principal's kind and id, e.g. `user:<id>` or `apiKey:<id>`. */
  principal: string;
}
