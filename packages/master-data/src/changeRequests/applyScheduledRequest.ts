import { inTransaction, type Queryable, type TransactionClient } from '@tablelock/db';
import { LockError, releaseTableLock } from '@tablelock/lock';
import type { ChangeRequestRecord, ScheduleFailure } from './changeRequestRecord';
import { releaseLeftoverLocks } from './releaseLeftoverLocks';
import {
  failureOfWait,
  markApplied,
  markFailed,
  reread,
  rowsFailure,
  type ScheduledRequest,
  scheduledRequestColumns,
  scheduledRequestOf,
  scheduleEditor,
  writeScheduledRequest,
} from './scheduledWrite';

export interface ScheduledRun {
  schema: string;
  id: string;
  /**
   * Who runs it: the API process's LISTEN connection's application_name. Its claim on the
   * request lasts while that connection does; another process takes a request over only then.
   */
  claimant: string;
  /**
   * Takes the table for `editor` (through the line: it waits while the table is held) and
   * answers the fencing token; a LockError when the wait ends without it.
   */
  takeTable: (tableName: string, editor: string) => Promise<string>;
}

/**
 * Applies a scheduled request whose time has come, exactly once across API processes: claimed
 * by one process, then taken through the fair line as the editor `schedule:<id>`, then, in one
 * transaction that holds the request's row and finds it still scheduled, every row checked
 * against the version it was made on and written through the fenced save and the write guard
 * (kind `scheduled`, naming the request), the request moved to `applied`, and the lock released.
 * If a row changed since or the save refuses it, nothing is written: the request is `failed`
 * with the rows and reasons. So too if the wait for the table ends (SCHEDULE_MAX_DELAY), naming
 * who held it. Answers the request as it ends; null when there was nothing to do (not due, not
 * scheduled, or claimed by another live process).
 */
export async function applyScheduledRequest(
  db: Queryable,
  run: ScheduledRun,
): Promise<ChangeRequestRecord | null> {
  const claimed = await claim(db, run);
  if (!claimed) return null;
  const editor = scheduleEditor(run.id);
  await releaseLeftoverLocks(db, editor, `change request ${run.id}`);
  let token: string;
  try {
    token = await run.takeTable(claimed.tableName, editor);
  } catch (error) {
    if (!(error instanceof LockError)) throw error;
    return failUnheld(db, run.id, failureOfWait(claimed.tableName, error));
  }
  let ended: ChangeRequestRecord | null = null;
  try {
    ended = await inTransaction(db, (tx) => applyUnderLock(tx, run, editor, token), {
      timeout: 120_000,
    });
    return ended;
  } finally {
    // An application that ended the request released the lock in its commit; a release now
    // would be refused, and recorded as a denied attempt. Only a request found no longer
    // scheduled, or a transaction that failed, leaves the lock to release here.
    if (ended === null) {
      await releaseTableLock(db, { tableName: claimed.tableName, editor, token }).catch(() => {});
    }
  }
}

/** Claims a due, scheduled request for this process, unless a live process has claimed it. */
async function claim(db: Queryable, run: ScheduledRun): Promise<{ tableName: string } | null> {
  if (!/^\d{1,18}$/.test(run.id)) return null;
  const [claimed] = await db.$queryRaw<{ tableName: string }[]>`
    UPDATE tablelock.change_request AS r SET claimed_by = ${run.claimant}
    WHERE r.id = ${run.id}::bigint AND r.state = 'scheduled' AND r.edition_id IS NULL
      AND r.effective_at <= clock_timestamp()
      AND (r.claimed_by IS NULL OR r.claimed_by = ${run.claimant}
           OR NOT EXISTS (SELECT 1 FROM pg_stat_activity AS a
                          WHERE a.application_name = r.claimed_by))
    RETURNING r.table_name AS "tableName"`;
  return claimed ?? null;
}

async function applyUnderLock(
  tx: TransactionClient,
  run: ScheduledRun,
  editor: string,
  token: string,
): Promise<ChangeRequestRecord | null> {
  const request = await scheduledRequest(tx, run.id);
  if (!request) return null;
  const { tableName } = request;
  const written = await writeScheduledRequest(tx, run.schema, request, editor, token);
  // The request carries the lock taken for it now: its failure's event names that token, by
  // which changeRequestChanged finds the request and tells its author.
  if (written.saved) await markApplied(tx, request, editor, token, written.counts);
  else await markFailed(tx, { ...request, token }, rowsFailure(written.rows));
  const released = await releaseTableLock(tx, {
    tableName,
    editor,
    token,
    reason: `change request ${run.id} ${written.saved ? 'applied' : 'failed'}`,
  });
  if ('refused' in released) throw new Error(`the lock of ${tableName} was not released`);
  return reread(tx, run.id);
}

/** The request, its row held to the end of the transaction, if it is still scheduled. */
async function scheduledRequest(
  tx: TransactionClient,
  id: string,
): Promise<ScheduledRequest | null> {
  const [row] = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT id FROM tablelock.change_request
    WHERE id = ${id}::bigint AND state = 'scheduled' FOR UPDATE`;
  if (!row) return null;
  return scheduledRequestOf(
    await tx.changeRequest.findUniqueOrThrow({
      where: { id: row.id },
      select: scheduledRequestColumns,
    }),
  );
}

/** The wait for the table ended without it: the request fails, if it is still scheduled. */
async function failUnheld(
  db: Queryable,
  id: string,
  failure: ScheduleFailure,
): Promise<ChangeRequestRecord | null> {
  return inTransaction(db, async (tx) => {
    const request = await scheduledRequest(tx, id);
    if (!request) return null;
    await markFailed(tx, request, failure);
    return reread(tx, id);
  });
}
