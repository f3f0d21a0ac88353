import type { PrismaClient } from '@tablelock/db';
import { currentRole, installGrant, readGuardDrift } from './guardDrift';
import type { WriteGuard } from './writeGuard';

/** A table the guard could not be installed on, and the statement that fixes it. */
export interface UnguardedTable {
  tableName: string;
  guard: WriteGuard;
  error: string;
  grant: string;
}

export interface WriteGuardSync {
  /** Tables whose triggers were installed or changed, with their guard now. */
  installed: { tableName: string; guard: WriteGuard }[];
  /** Tables whose triggers were removed (guard OFF). */
  removed: string[];
  failed: UnguardedTable[];
}

// Each table's triggers are changed under a lock on it; a statement changes this many tables,
// so that a sync of thousands of tables stays within the server's lock table.
const TABLES_PER_STATEMENT = 100;
/** The advisory lock key under which triggers are installed (any fixed number of our own). */
const INSTALLING_GUARDS = 7_301_446_020n;

/**
 * Makes the triggers on every registered master table match its guard: its policy's, else
 * `defaultGuard` (WRITE_GUARD_DEFAULT). Only tables whose triggers differ are touched, so a
 * sync with nothing to change costs one catalog read. A renamed table keeps its triggers (they
 * name no table); a dropped one loses them with it; one the registry left out (partitioned, a
 * partition, table inheritance) loses them here.
 */
export async function syncWriteGuards(
  prisma: PrismaClient,
  schema: string,
  defaultGuard: WriteGuard,
): Promise<WriteGuardSync> {
  const differing = (await readGuardDrift(prisma, schema, defaultGuard)).map((table) => ({
    tableName: table.tableName,
    guard: table.wanted,
  }));
  const result: WriteGuardSync = { installed: [], removed: [], failed: [] };
  if (differing.length === 0) return result;
  const role = await currentRole(prisma);
  for (let start = 0; start < differing.length; start += TABLES_PER_STATEMENT) {
    const batch = differing.slice(start, start + TABLES_PER_STATEMENT);
    // One installer at a time: install_write_guard drops a table's triggers and creates them
    // again, and two processes starting at once both did it between each other's two steps.
    const [, outcomes] = await prisma.$transaction([
      prisma.$executeRaw`SELECT pg_advisory_xact_lock(${INSTALLING_GUARDS})`,
      prisma.$queryRaw<{ tableName: string; error: string | null }[]>`
        SELECT b.table_name AS "tableName",
               tablelock.install_write_guard(${schema}, b.table_name, b.guard) AS error
        FROM jsonb_to_recordset(${JSON.stringify(batch.map((t) => ({ table_name: t.tableName, guard: t.guard })))}::jsonb)
          AS b(table_name text, guard text)`,
    ]);
    for (const table of batch) {
      const error = outcomes.find((o) => o.tableName === table.tableName)?.error ?? null;
      if (error) {
        result.failed.push({
          ...table,
          error,
          grant: installGrant(schema, table.tableName, role),
        });
      } else if (table.guard === 'OFF') result.removed.push(table.tableName);
      else result.installed.push(table);
    }
  }
  return result;
}
