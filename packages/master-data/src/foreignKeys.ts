import { type Queryable, quoteIdentifier } from '@tablelock/db';
import type { MasterTable } from './tableColumns';

/** A foreign key of a table, as the Postgres catalog describes it. */
export interface ForeignKey {
  name: string;
  /** The referencing columns, in the constraint's order. */
  columns: string[];
  /** `"schema"."table"` of the referenced table, quoted. */
  targetQualifiedName: string;
  targetTable: string;
  /** The referenced columns, matching `columns` one for one. */
  targetColumns: string[];
  /**
   * A PERIOD foreign key (Postgres 18): its last column is a period that the referenced rows'
   * periods, together, must cover; the columns before it name the rows as usual.
   */
  period: boolean;
}

export async function readForeignKeys(db: Queryable, table: MasterTable): Promise<ForeignKey[]> {
  const keys = await db.$queryRaw<
    (Omit<ForeignKey, 'targetQualifiedName'> & { targetSchema: string })[]
  >`
    SELECT fk.conname::text AS name,
           array(SELECT a.attname::text FROM unnest(fk.conkey) WITH ORDINALITY AS k(num, pos)
                 JOIN pg_attribute AS a ON a.attrelid = fk.conrelid AND a.attnum = k.num
                 ORDER BY k.pos) AS columns,
           ns.nspname::text AS "targetSchema",
           target.relname::text AS "targetTable",
           array(SELECT a.attname::text FROM unnest(fk.confkey) WITH ORDINALITY AS k(num, pos)
                 JOIN pg_attribute AS a ON a.attrelid = fk.confrelid AND a.attnum = k.num
                 ORDER BY k.pos) AS "targetColumns",
           fk.conperiod AS period
    FROM pg_constraint AS fk
    JOIN pg_class AS target ON target.oid = fk.confrelid
    JOIN pg_namespace AS ns ON ns.oid = target.relnamespace
    WHERE fk.conrelid = ${table.qualifiedName}::regclass AND fk.contype = 'f'
    ORDER BY fk.conname`;
  return keys.map(({ targetSchema, ...key }) => ({
    ...key,
    targetQualifiedName: `${quoteIdentifier(targetSchema)}.${quoteIdentifier(key.targetTable)}`,
  }));
}
