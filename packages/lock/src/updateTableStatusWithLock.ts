import type { PrismaClient, TableStatus } from '@tablelock/db';
import { LockError } from './lockError';
import { compareAndSetLockRows, readLockScope } from './lockRegistrySql';
import { type LockIntent, parseLockRequest, type TableStatusChange } from './lockRequest';
import type { LockRow } from './lockRow';
import { fkTablesOf, planLockChange } from './planLockChange';

export interface FkTableStatus {
  tableName: string;
  currentStatus: TableStatus;
}

export interface LockOutcome {
  /** True if every condition held and the change was made; false if nothing changed. */
  lockResult: boolean;
  currentStatus: TableStatus;
  fkCurrentStatus: FkTableStatus[];
}

/**
 * The seed's `UpdateTableStatusWithLock`: moves a table and its FK tables all or nothing, like
 * the seed's transaction of conditional writes. It reads the rows involved, lets the state
 * machine decide, and writes them in one statement on the condition that none changed since
 * the read and no other transaction holds any of them. Never waits on a database lock: a
 * contended call loses at once (`lockResult: false`). Refusals that no retry can fix (bad
 * input, unknown table, impossible transition, releasing someone else's lock) throw a LockError.
 */
export async function updateTableStatusWithLock(
  prisma: PrismaClient,
  change: TableStatusChange,
): Promise<LockOutcome> {
  const intent = parseLockRequest(change);
  const rows = await readLockScope(prisma, intent.tableName, intent.namedFkTables);
  const plan = planLockChange(intent, rows);
  if (!plan.granted) return outcome(false, intent, rows);
  const { written, statuses } = await compareAndSetLockRows(
    prisma,
    [...rows.values()],
    plan.changes,
  );
  if (written) {
    for (const row of plan.changes) rows.set(row.tableName, row);
    return outcome(true, intent, rows);
  }
  for (const [name, status] of statuses) {
    const row = rows.get(name);
    if (row) rows.set(name, { ...row, status });
  }
  return outcome(false, intent, rows);
}

function outcome(
  lockResult: boolean,
  intent: LockIntent,
  rows: ReadonlyMap<string, LockRow>,
): LockOutcome {
  const main = rows.get(intent.tableName);
  if (!main)
    throw new LockError('TABLE_NOT_FOUND', `No master table is named ${intent.tableName}.`);
  return {
    lockResult,
    currentStatus: main.status,
    fkCurrentStatus: fkTablesOf(intent, main).flatMap((name) => {
      const row = rows.get(name);
      return row ? [{ tableName: name, currentStatus: row.status }] : [];
    }),
  };
}
