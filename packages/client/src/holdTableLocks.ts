import { randomUUID } from 'node:crypto';
import { submitChangeRequestMutation } from './changeRequestOperations';
import { importFile } from './importFile';
import { releaseTableLockMutation, saveRowsMutation } from './lockOperations';
import { endsAcquisition, lostLockError } from './lostLock';
import { type HeldTable, renewLeases } from './renewLeases';
import type { TableLock } from './TableLock';
import { isTablelockError, type TablelockError } from './TablelockError';
import type { TablelockApi } from './tablelockApi';
import { useLockIn } from './useLockIn';
import { watchLockChanges } from './watchLockChanges';

/**
 * How long a save is retried while the API cannot be reached, at least: longer while the lock's
 * lease outlasts it (an API restarted on a busy machine took more than 30 s to serve again, and
 * the lock was still the caller's). A save that meets a lost lock ends with LOCK_LOST anyway.
 */
const SAVE_RETRY_MS = 30_000;

/** Tables held while work runs: renewed, watched, and released at the end. */
export interface TableLockHold {
  readonly lock: TableLock;
  /** Why the lock was lost, if it was. */
  lostBecause(): TablelockError | undefined;
  /**
   * Stops renewing and watching, and releases every table not lost, retrying for up to
   * `retryForMs`. Calls after the first return the first's promise.
   */
  release(retryForMs: number): Promise<void>;
}

/**
 * Holds `held` for work that `stop` tells to stop: renews the leases (none when `leaseSeconds`
 * is null), and aborts `stop` with LOCK_LOST as soon as a table is lost, as announced live
 * (`lockChanged`) or answered by a renewal or a save.
 */
export function holdTableLocks(
  api: TablelockApi,
  held: readonly HeldTable[],
  leaseSeconds: number | null,
  stop: AbortController,
): TableLockHold {
  const tokens = Object.fromEntries(held.map(({ table, token }) => [table, token]));
  const lost = new Set<string>();
  // Tables whose lock went (or is going) to a change request: neither lost nor released here.
  const handedOver = new Set<string>();
  let lostError: TablelockError | undefined;
  let releasing = false;
  const lose = (table: string, error: TablelockError) => {
    if (handedOver.has(table)) return;
    lost.add(table);
    lostError ??= error;
    stop.abort(lostError);
  };

  const renewals = leaseSeconds === null ? undefined : renewLeases(api, held, leaseSeconds, lose);
  const stopWatching = watchLockChanges(api, held.length === 1 ? (held[0]?.table ?? null) : null, {
    onChange: (change) => {
      const token = tokens[change.table];
      // Our own release, announced before the subscription had closed, ends nothing we hold.
      if (releasing && change.action === 'release') return;
      if (token && !lost.has(change.table) && endsAcquisition(change, token)) {
        lose(change.table, lostLockError(change));
      }
    },
    // A change announced before the subscription listened was not heard: a renewal tells
    // whether the lock is still ours (LOCK_LOST otherwise), on the first connection as on later ones.
    onConnected: () => renewals?.renewNow(),
  });

  let released: Promise<void> | undefined;
  const release = async (retryForMs: number) => {
    releasing = true;
    renewals?.stop();
    await stopWatching();
    const releases = held
      .filter(({ table }) => !lost.has(table) && !handedOver.has(table))
      .map(({ table, token }) =>
        api
          .request(
            releaseTableLockMutation,
            { table, token, idempotencyKey: randomUUID() },
            { retryForMs },
          )
          .catch((error: unknown) => {
            // Lost meanwhile: nothing left to release.
            if (!isTablelockError(error, 'LOCK_LOST')) throw error;
          }),
      );
    const failed = (await Promise.allSettled(releases)).find(
      (outcome) => outcome.status === 'rejected',
    );
    if (failed) throw failed.reason;
  };

  const tokenOf = (table: string) => {
    const token = tokens[table];
    if (!token || handedOver.has(table)) {
      throw new Error(`${table} is not held by this lock (${Object.keys(tokens).join(', ')}).`);
    }
    return token;
  };

  /** `call`'s outcome; a LOCK_LOST answer also tells the work that the lock is gone. */
  const noticingLoss = async <T>(table: string, call: Promise<T>): Promise<T> => {
    try {
      return await call;
    } catch (error) {
      if (isTablelockError(error, 'LOCK_LOST') && !lost.has(table)) lose(table, error);
      throw error;
    }
  };

  return {
    lock: {
      tokens,
      signal: stop.signal,
      async submitForApproval(table, request) {
        const token = tokenOf(table);
        // From the moment it is sent: a renewal that meets the moved lock is no loss.
        handedOver.add(table);
        try {
          const { submitChangeRequest } = await api.request(
            submitChangeRequestMutation,
            { table, token, ...request },
            // Sent once: sent again after a lost answer, it would find the lock moved.
            { retryForMs: 0 },
          );
          if (submitChangeRequest.submitted) renewals?.forget(table);
          else handedOver.delete(table);
          return submitChangeRequest;
        } catch (error) {
          handedOver.delete(table);
          if (isTablelockError(error, 'LOCK_LOST') && !lost.has(table)) lose(table, error);
          throw error;
        }
      },
      async saveRows(table, changes) {
        const token = tokenOf(table);
        const saved = await noticingLoss(
          table,
          api.request(
            saveRowsMutation,
            { table, token, changes, idempotencyKey: randomUUID() },
            {
              retryForMs: Math.max(
                api.retryFor(SAVE_RETRY_MS),
                (renewals?.leaseEndOf(table) ?? 0) - Date.now(),
              ),
            },
          ),
        );
        return saved.saveRows;
      },
      async useIn(db) {
        // A token known stale is not shown: the guard would refuse it with a database error,
        // where the work should learn that the lock is lost.
        if (lostError) throw lostError;
        await useLockIn(
          db,
          Object.fromEntries(Object.entries(tokens).filter(([table]) => !handedOver.has(table))),
        );
      },
      async importFile(table, path, options) {
        return noticingLoss(table, importFile(api, table, tokenOf(table), path, options));
      },
    },
    lostBecause: () => lostError,
    release: (retryForMs) => {
      released ??= release(retryForMs);
      return released;
    },
  };
}
