import { inTransaction, type Queryable, type TransactionClient } from '@tablelock/db';
import { LockError, releaseTableLock } from '@tablelock/lock';
import type { ScheduleFailure } from '../changeRequests/changeRequestRecord';
import { releaseLeftoverLocks } from '../changeRequests/releaseLeftoverLocks';
import {
  failureOfWait,
  markApplied,
  markFailed,
  rowsFailure,
  type ScheduledRequest,
  type ScheduledWrite,
  scheduledRequestColumns,
  scheduledRequestOf,
  writeScheduledRequest,
} from '../changeRequests/scheduledWrite';
import { type EditionFailedRow, type EditionRecord, editionOf } from './editionRecord';

export interface EditionRun {
  schema: string;
  id: string;
  /** As ScheduledRun.claimant. */
  claimant: string;
  /** Takes all of `tableNames` together (through the line) for `editor`: each one's token. */
  takeTables: (tableNames: string[], editor: string) => Promise<Map<string, string>>;
}

/** The editor an edition takes its tables as. */
export const editionEditor = (id: string) => `edition:${id}`;

/**
 * Applies an edition whose time has come, all or nothing, exactly once across API processes (as
 * applyScheduledRequest): its tables taken together through the line as `edition:<id>`, then in
 * one transaction every request written as a scheduled request is, and the edition and its
 * requests `applied`. If any row of any request changed since or no longer saves, nothing is
 * written (rolled back to before the first request): the edition and each of its requests are
 * `failed`, the rows named with their request. So too when a request was not approved by the
 * edition's time, or the tables stayed held. Null when there was nothing to do.
 */
export async function applyScheduledEdition(
  db: Queryable,
  run: EditionRun,
): Promise<EditionRecord | null> {
  if (!(await claim(db, run))) return null;
  const requests = await db.changeRequest.findMany({
    where: { editionId: BigInt(run.id), state: { in: ['pending', 'scheduled'] } },
    select: { id: true, state: true, tableName: true },
    orderBy: { id: 'asc' },
  });
  const unapproved = requests.filter((request) => request.state === 'pending');
  if (unapproved.length > 0) {
    return failEdition(db, run.id, {
      reason: 'REFUSED',
      message: `Change requests ${unapproved.map((request) => request.id).join(', ')} were not approved by the edition's time; nothing was written.`,
      rows: [],
      holder: null,
    });
  }
  const tableNames = [...new Set(requests.map((request) => request.tableName))].sort();
  const editor = editionEditor(run.id);
  await releaseLeftoverLocks(db, editor, `edition ${run.id}`);
  let tokens = new Map<string, string>();
  try {
    if (tableNames.length > 0) tokens = await run.takeTables(tableNames, editor);
  } catch (error) {
    if (!(error instanceof LockError)) throw error;
    return failEdition(db, run.id, failureOfWait(tableNames.join(', '), error));
  }
  let ended: EditionRecord | null = null;
  try {
    ended = await inTransaction(db, (tx) => applyAll(tx, run, editor, tokens), {
      timeout: 300_000,
    });
    return ended;
  } finally {
    // An application that ended the edition released the locks in its commit; releases now
    // would be refused, and recorded as denied attempts. Only an edition found no longer
    // scheduled, or a transaction that failed, leaves the locks to release here.
    if (ended === null) {
      for (const [tableName, token] of tokens) {
        await releaseTableLock(db, { tableName, editor, token }).catch(() => {});
      }
    }
  }
}

async function claim(db: Queryable, run: EditionRun): Promise<boolean> {
  if (!/^\d{1,18}$/.test(run.id)) return false;
  const claimed = await db.$executeRaw`
    UPDATE tablelock.edition AS e SET claimed_by = ${run.claimant}
    WHERE e.id = ${run.id}::bigint AND e.state = 'scheduled' AND e.effective_at <= clock_timestamp()
      AND (e.claimed_by IS NULL OR e.claimed_by = ${run.claimant}
           OR NOT EXISTS (SELECT 1 FROM pg_stat_activity AS a
                          WHERE a.application_name = e.claimed_by))`;
  return claimed === 1;
}

async function applyAll(
  tx: TransactionClient,
  run: EditionRun,
  editor: string,
  tokens: Map<string, string>,
): Promise<EditionRecord | null> {
  const [edition] = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT id FROM tablelock.edition WHERE id = ${run.id}::bigint AND state = 'scheduled'
    FOR UPDATE`;
  if (!edition) return null;
  const requests = await scheduledRequests(tx, run.id);
  await tx.$executeRawUnsafe('SAVEPOINT edition_apply');
  const writes: { request: ScheduledRequest; token: string; written: ScheduledWrite }[] = [];
  for (const request of requests) {
    const token = tokens.get(request.tableName);
    if (token === undefined)
      throw new Error(`edition ${run.id} holds no lock of ${request.tableName}`);
    writes.push({
      request,
      token,
      written: await writeScheduledRequest(tx, run.schema, request, editor, token),
    });
  }
  const failedRows: EditionFailedRow[] = writes.flatMap(({ request, written }) =>
    written.saved
      ? []
      : written.rows.map((row) => ({
          ...row,
          changeRequestId: request.id,
          tableName: request.tableName,
        })),
  );
  if (failedRows.length > 0) {
    await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT edition_apply');
    for (const { request, written } of writes) {
      const rows = written.saved ? [] : written.rows;
      await markFailed(tx, request, rowsFailure(rows, `Edition ${run.id} was not applied. `));
    }
    await endEdition(tx, run.id, 'failed', {
      reason: 'ROWS_CHANGED',
      message: `Rows changed since their requests were submitted, or no longer save: ${failedRows
        .map((row) => `${row.tableName} ${JSON.stringify(row.key)} (${row.message})`)
        .join('; ')}. Nothing was written.`,
      rows: failedRows,
      holder: null,
    });
  } else {
    for (const { request, token, written } of writes) {
      if (written.saved) await markApplied(tx, request, editor, token, written.counts);
    }
    await endEdition(tx, run.id, 'applied', null);
  }
  for (const [tableName, token] of tokens) {
    const released = await releaseTableLock(tx, { tableName, editor, token });
    if ('refused' in released) throw new Error(`the lock of ${tableName} was not released`);
  }
  return editionOf(await tx.edition.findUniqueOrThrow({ where: { id: BigInt(run.id) } }));
}

/** The edition's scheduled requests, their rows held, in the order they were submitted. */
async function scheduledRequests(tx: TransactionClient, id: string) {
  const locked = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT id FROM tablelock.change_request
    WHERE edition_id = ${id}::bigint AND state = 'scheduled' ORDER BY id FOR UPDATE`;
  const stored = await tx.changeRequest.findMany({
    where: { id: { in: locked.map((row) => row.id) } },
    select: scheduledRequestColumns,
    orderBy: { id: 'asc' },
  });
  return stored.map(scheduledRequestOf);
}

async function endEdition(
  tx: TransactionClient,
  id: string,
  state: 'applied' | 'failed',
  failure: (Omit<ScheduleFailure, 'rows'> & { rows: EditionFailedRow[] }) | null,
): Promise<void> {
  await tx.$executeRaw`
    UPDATE tablelock.edition
    SET state = ${state}::tablelock."EditionState",
        applied_at = CASE WHEN ${state} = 'applied' THEN clock_timestamp() END,
        failed_at = CASE WHEN ${state} = 'failed' THEN clock_timestamp() END,
        failure = ${failure === null ? null : JSON.stringify(failure)}::jsonb,
        late_by_seconds = greatest(0, floor(extract(epoch FROM clock_timestamp() - effective_at)))::int
    WHERE id = ${id}::bigint`;
}

/** The edition could not start: it and its waiting requests fail, if it still waits. */
async function failEdition(
  db: Queryable,
  id: string,
  failure: ScheduleFailure,
): Promise<EditionRecord | null> {
  return inTransaction(db, async (tx) => {
    const [edition] = await tx.$queryRaw<{ id: bigint }[]>`
      SELECT id FROM tablelock.edition WHERE id = ${id}::bigint AND state = 'scheduled'
      FOR UPDATE`;
    if (!edition) return null;
    const waiting = await tx.changeRequest.findMany({
      where: { editionId: BigInt(id), state: { in: ['pending', 'scheduled'] } },
      select: scheduledRequestColumns,
    });
    for (const request of waiting) await markFailed(tx, scheduledRequestOf(request), failure);
    await endEdition(tx, id, 'failed', { ...failure, rows: [] });
    return editionOf(await tx.edition.findUniqueOrThrow({ where: { id: BigInt(id) } }));
  });
}
