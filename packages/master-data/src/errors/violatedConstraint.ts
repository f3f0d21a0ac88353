import { type Queryable, quoteIdentifier } from '@tablelock/db';

/** A constraint named in a Postgres error, as the catalog describes it. */
export interface ViolatedConstraint {
  name: string;
  /** `f` foreign key, `u` unique, `p` primary key, `c` check. */
  type: string;
  table: string;
  qualifiedTable: string;
  columns: string[];
  /** Foreign keys: the referenced table and columns. */
  targetTable: string | null;
  qualifiedTargetTable: string | null;
  targetColumns: string[];
  definition: string;
}

/** The Postgres message names the constraint even where the driver does not pass it on. */
export const constraintNameIn = (message: string) =>
  /constraint "((?:[^"]|"")+)"/.exec(message)?.[1];

/**
 * The constraint of that name on `qualifiedTable`, or on a table that references it (the
 * constraint of a delete refused because rows still point at the row).
 */
export async function readViolatedConstraint(
  db: Queryable,
  qualifiedTable: string,
  name: string,
): Promise<ViolatedConstraint | undefined> {
  const [row] = await db.$queryRaw<
    (Omit<ViolatedConstraint, 'qualifiedTable' | 'qualifiedTargetTable'> & {
      schema: string;
      targetSchema: string | null;
    })[]
  >`
    SELECT c.conname::text AS name, c.contype::text AS type,
           ns.nspname::text AS schema, rel.relname::text AS "table",
           array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY AS k(num, pos)
                 JOIN pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = k.num
                 ORDER BY k.pos) AS columns,
           target_ns.nspname::text AS "targetSchema", target.relname::text AS "targetTable",
           array(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY AS k(num, pos)
                 JOIN pg_attribute AS a ON a.attrelid = c.confrelid AND a.attnum = k.num
                 ORDER BY k.pos) AS "targetColumns",
           pg_get_constraintdef(c.oid) AS definition
    FROM pg_constraint AS c
    JOIN pg_class AS rel ON rel.oid = c.conrelid
    JOIN pg_namespace AS ns ON ns.oid = rel.relnamespace
    LEFT JOIN pg_class AS target ON target.oid = c.confrelid
    LEFT JOIN pg_namespace AS target_ns ON target_ns.oid = target.relnamespace
    WHERE c.conname = ${name}
      AND (c.conrelid = ${qualifiedTable}::regclass OR c.confrelid = ${qualifiedTable}::regclass)
    ORDER BY c.conrelid = ${qualifiedTable}::regclass DESC
    LIMIT 1`;
  if (!row) return undefined;
  const { schema, targetSchema, ...constraint } = row;
  return {
    ...constraint,
    qualifiedTable: `${quoteIdentifier(schema)}.${quoteIdentifier(constraint.table)}`,
    qualifiedTargetTable:
      targetSchema && constraint.targetTable
        ? `${quoteIdentifier(targetSchema)}.${quoteIdentifier(constraint.targetTable)}`
        : null,
  };
}
