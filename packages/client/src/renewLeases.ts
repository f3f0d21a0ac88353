import { renewTableLockMutation } from './lockOperations';
import { isTablelockError, TablelockError } from './TablelockError';
import type { TablelockApi } from './tablelockApi';

/** A table held under a fencing token. */
export interface HeldTable {
  table: string;
  token: string;
}

export interface LeaseRenewals {
  /** Renews every table now (after a break in the live updates, to learn whether a lock survived). */
  renewNow(): void;
  /** No more renewals of `table` (its lock went to a change request). */
  forget(table: string): void;
  /** No more renewals; one in flight is abandoned. */
  stop(): void;
  /** When `table`'s lease ends, by the local clock (epoch ms), as far as its renewals know. */
  leaseEndOf(table: string): number | undefined;
}

/**
 * Renews the lease of every table in `held` every third of `leaseSeconds`, so that two renewals
 * can fail before a lease runs out. A table whose renewal answers LOCK_LOST, or cannot be renewed
 * before its lease would end, goes to `onLost` and is renewed no more.
 */
export function renewLeases(
  api: TablelockApi,
  held: readonly HeldTable[],
  leaseSeconds: number,
  onLost: (table: string, error: TablelockError) => void,
): LeaseRenewals {
  const leaseMs = leaseSeconds * 1000;
  const intervalMs = leaseMs / 3;
  const renewing = new Map(held.map(({ table, token }) => [table, token]));
  // By the local clock, and late by the acquisition's round trip: only for giving up.
  const leaseEnds = new Map(held.map(({ table }) => [table, Date.now() + leaseMs]));
  const stopped = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let inFlight = false;

  const lose = (table: string, error: TablelockError) => {
    renewing.delete(table);
    onLost(table, error);
  };

  const renew = async (table: string, token: string) => {
    const sentAt = Date.now();
    const leaseEnd = leaseEnds.get(table) ?? sentAt;
    try {
      await api.request(
        renewTableLockMutation,
        { table, token, leaseSeconds },
        { retryForMs: leaseEnd - sentAt, signal: stopped.signal },
      );
      leaseEnds.set(table, sentAt + leaseMs);
    } catch (error) {
      if (stopped.signal.aborted) return;
      if (isTablelockError(error, 'LOCK_LOST')) return lose(table, error);
      // Anything else may pass by the next renewal, unless the lease ends before it.
      if (Date.now() + intervalMs < leaseEnd) return;
      const why = error instanceof Error ? error.message : String(error);
      lose(
        table,
        new TablelockError(
          'LOCK_LOST',
          `Could not renew the lock on ${table} before its lease ran out: ${why}`,
          { cause: error },
        ),
      );
    }
  };

  const renewAll = async () => {
    clearTimeout(timer);
    inFlight = true;
    await Promise.all([...renewing].map(([table, token]) => renew(table, token)));
    inFlight = false;
    if (!stopped.signal.aborted) timer = setTimeout(renewAll, intervalMs);
  };

  timer = setTimeout(renewAll, intervalMs);
  return {
    renewNow: () => {
      if (!inFlight && !stopped.signal.aborted) void renewAll();
    },
    forget: (table) => {
      renewing.delete(table);
    },
    stop: () => {
      stopped.abort();
      clearTimeout(timer);
    },
    leaseEndOf: (table) => leaseEnds.get(table),
  };
}
