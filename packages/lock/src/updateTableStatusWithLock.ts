import type { PrismaClient, TableStatus } from '@tablelock/db';
import { LockError } from './lockError';
import {
  findLockScope,
  lockRowsWithoutWaiting,
  readLockRows,
  writeLockRows,
} from './lockRegistrySql';
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
 * The seed's `UpdateTableStatusWithLock`: moves a table and its FK tables in one transaction
 * of conditional writes, all or nothing. Never waits on a database lock: if another
 * transaction holds any row involved, the call loses at once (`lockResult: false`).
 * Refusals that no retry can fix (bad input, unknown table, impossible transition, releasing
 * someone else's lock) throw a LockError.
 */
export async function updateTableStatusWithLock(
  prisma: PrismaClient,
  change: TableStatusChange,
): Promise<LockOutcome> {
  const intent = parseLockRequest(change);
  return prisma.$transaction(async (tx) => {
    const scope = await findLockScope(tx, intent.tableName, intent.namedFkTables);
    for (const name of [intent.tableName, ...intent.namedFkTables]) {
      if (!scope.includes(name)) {
        throw new LockError('TABLE_NOT_FOUND', `No master table is named ${name}.`);
      }
    }
    const rows = await lockRowsWithoutWaiting(tx, scope);
    if (!coversScope(rows, scope, intent.tableName)) {
      return outcome(false, intent, await readLockRows(tx, scope));
    }
    const plan = planLockChange(intent, rows);
    if (!plan.granted) return outcome(false, intent, rows);
    await writeLockRows(tx, plan.changes);
    for (const row of plan.changes) rows.set(row.tableName, row);
    return outcome(true, intent, rows);
  });
}

// All rows of the scope are locked, and the scope still contains the table's FK targets (a
// registry re-sync may have added one since the scope was read).
function coversScope(rows: Map<string, LockRow>, scope: string[], tableName: string): boolean {
  const main = rows.get(tableName);
  return (
    rows.size === scope.length &&
    main !== undefined &&
    main.references.every((name) => rows.has(name))
  );
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
