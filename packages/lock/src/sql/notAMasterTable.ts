import type { Queryable } from '@tablelock/db';
import { LockError } from '../core/lockError';
import { LEFT_OUT_TABLE } from './registryTables';

interface LeftOut {
  parent: string | null;
  partitioned: boolean;
}

/**
 * Why a request naming `tableName`, of which the registry has no row, is refused:
 * TABLE_PARTITIONED for a table the registry sync left out (a partitioned table, a partition,
 * table inheritance), saying so and why; else TABLE_NOT_FOUND. Read only on refusal.
 */
export async function notAMasterTable(db: Queryable, tableName: string): Promise<LockError> {
  const [leftOut] = await db.$queryRaw<LeftOut[]>`
    SELECT parent, partitioned FROM ${LEFT_OUT_TABLE} WHERE table_name = ${tableName}`;
  if (!leftOut) return new LockError('TABLE_NOT_FOUND', `No master table is named ${tableName}.`);
  return new LockError(
    'TABLE_PARTITIONED',
    `${whatItIs(tableName, leftOut)}: ${WHY}`,
    leftOut.parent ? { parent: leftOut.parent } : {},
  );
}

function whatItIs(tableName: string, { parent, partitioned }: LeftOut): string {
  if (partitioned)
    return parent ? `${tableName} is a partition of ${parent}` : `${tableName} is partitioned`;
  return parent
    ? `${tableName} inherits from ${parent}`
    : `${tableName} has child tables (INHERITS)`;
}

// The guard's triggers fire only for the table a statement names, so they cannot hold a write
// that reaches another table of the tree (see migration left_out_tables).
const WHY =
  'tablelock neither locks nor guards partitioned tables, their partitions or tables with ' +
  'inheritance, as a write straight to a partition (or through a parent) would pass the ' +
  'write guard. Keep master tables unpartitioned; the others are not master tables.';
