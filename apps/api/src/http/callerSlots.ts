import { DomainError } from '@tablelock/errors';
import type { Principal } from '@tablelock/identity';

export interface SlotLimits {
  /** Under way in one API process at once. */
  atOnce: number;
  /** Of those, one caller's (user or API key). */
  perCaller: number;
}

/** What a refusal says when the caller's own places are taken, and when the process's are. */
export interface SlotRefusals {
  ownBusy: string;
  allBusy: string;
  retryAfterSeconds: number;
}

export interface CallerSlots {
  /** Takes a place for `caller`, or refuses with TOO_MANY_REQUESTS; returns its release. */
  take(caller: Principal): () => void;
}

/**
 * Places for work of one kind (exports, imports) under way in this process, in all and per
 * caller: one caller cannot take them all, and many cannot take the process's memory and
 * database connections.
 */
export function createCallerSlots(limits: SlotLimits, refusals: SlotRefusals): CallerSlots {
  let running = 0;
  const byCaller = new Map<string, number>();
  const busy = (message: string) =>
    new DomainError('TOO_MANY_REQUESTS', message, {
      retryAfterSeconds: refusals.retryAfterSeconds,
    });
  return {
    take(caller) {
      const key = `${caller.kind}:${caller.id}`;
      const own = byCaller.get(key) ?? 0;
      if (own >= limits.perCaller) throw busy(refusals.ownBusy);
      if (running >= limits.atOnce) throw busy(refusals.allBusy);
      running++;
      byCaller.set(key, own + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        running--;
        const left = (byCaller.get(key) ?? 1) - 1;
        if (left > 0) byCaller.set(key, left);
        else byCaller.delete(key);
      };
    },
  };
}
