import type { Queryable } from '@tablelock/db';
import type { MasterTable } from './tableColumns';

/** A UNIQUE constraint of a table (its primary key aside). */
export interface UniqueRule {
  name: string;
  columns: string[];
}

/** A CHECK constraint of a table. */
export interface CheckConstraint {
  name: string;
  columns: string[];
  /** `pg_get_constraintdef`: `CHECK ((unit_price >= (0)::numeric))`. */
  definition: string;
  /** `pg_get_expr` of the rule: SQL over the table's bare column names. */
  expression: string;
}

export async function readUniqueRules(db: Queryable, table: MasterTable): Promise<UniqueRule[]> {
  return db.$queryRaw<UniqueRule[]>`
    SELECT c.conname::text AS name,
           array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY AS k(num, pos)
                 JOIN pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = k.num
                 ORDER BY k.pos) AS columns
    FROM pg_constraint AS c
    WHERE c.conrelid = ${table.qualifiedName}::regclass AND c.contype = 'u'
    ORDER BY c.conname`;
}

export async function readCheckConstraints(
  db: Queryable,
  table: MasterTable,
): Promise<CheckConstraint[]> {
  return db.$queryRaw<CheckConstraint[]>`
    SELECT c.conname::text AS name,
           array(SELECT a.attname::text FROM unnest(c.conkey) AS k(num)
                 JOIN pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = k.num
                 ORDER BY a.attnum) AS columns,
           pg_get_constraintdef(c.oid) AS definition,
           pg_get_expr(c.conbin, c.conrelid) AS expression
    FROM pg_constraint AS c
    WHERE c.conrelid = ${table.qualifiedName}::regclass AND c.contype = 'c'
    ORDER BY c.conname`;
}
