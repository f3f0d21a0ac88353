import type { Queryable } from '@tablelock/db';
import { currentRole, type GuardDrift, installGrant, readGuardDrift } from './guardDrift';
import { type HistoryGauges, readHistoryGauges } from './readHistoryGauges';
import type { WriteGuard } from './writeGuard';

/** What the admin page shows of the write guard. */
export interface WriteGuardStatus extends HistoryGauges {
  defaultGuard: WriteGuard;
  /** Tables whose triggers differ from their guard, each with the statement that fixes it. */
  unguardedTables: (GuardDrift & { grant: string })[];
}

/**
 * The guard as the database has it now, so that every API process tells the same: a table
 * still differing after the sync that followed its last change is one tablelock could not
 * guard (the sync logs why).
 */
export async function readWriteGuardStatus(
  db: Queryable,
  schema: string,
  defaultGuard: WriteGuard,
): Promise<WriteGuardStatus> {
  const [drift, gauges, role] = await Promise.all([
    readGuardDrift(db, schema, defaultGuard),
    readHistoryGauges(db),
    currentRole(db),
  ]);
  return {
    ...gauges,
    defaultGuard,
    unguardedTables: drift.map((table) => ({
      ...table,
      grant: installGrant(schema, table.tableName, role),
    })),
  };
}
