import { type Queryable, quoteIdentifier } from '@tablelock/db';
import { isRegisteredTable } from '@tablelock/lock';
import { MasterDataError } from './masterDataError';

export type ColumnKind =
  | 'text'
  | 'integer'
  | 'decimal'
  | 'boolean'
  | 'date'
  | 'timestamp'
  | 'period'
  | 'other';

export interface TableColumn {
  name: string;
  /** The Postgres type as `format_type` writes it, e.g. `numeric(12,2)`: also the cast for values. */
  dataType: string;
  kind: ColumnKind;
  nullable: boolean;
  hasDefault: boolean;
  primaryKey: boolean;
  /** No two rows may share a value of this column alone (NULLs aside): its own UNIQUE index. */
  unique: boolean;
  maxLength: number | null;
  references: string | null;
  /**
   * Its values are text a person chose: a string type (text, varchar, char, citext), an enum, an
   * array of those, or a domain over any of them. The CSV export guards these against formulas.
   */
  holdsText: boolean;
  /** Its COMMENT ON text, if any (see captions.ts for what it may hold). */
  comment: string | null;
}

export interface MasterTable {
  name: string;
  /** `"schema"."table"`, quoted: the only way table names reach SQL text. */
  qualifiedName: string;
  columns: TableColumn[];
  /** Primary key columns in key order; empty for a table without one (read-only then). */
  primaryKey: TableColumn[];
  /** Its COMMENT ON text, if any. */
  comment: string | null;
}

const KIND_BY_TYPE: Record<string, ColumnKind> = {
  text: 'text',
  varchar: 'text',
  bpchar: 'text',
  int2: 'integer',
  int4: 'integer',
  int8: 'integer',
  numeric: 'decimal',
  float4: 'decimal',
  float8: 'decimal',
  bool: 'boolean',
  date: 'date',
  timestamp: 'timestamp',
  timestamptz: 'timestamp',
};

/**
 * A registered master table with its columns as the Postgres catalog describes them. Table and
 * column names used in SQL come only from here.
 */
export async function readMasterTable(
  db: Queryable,
  schema: string,
  table: string,
): Promise<MasterTable> {
  const rows = (await isRegisteredTable(db, table))
    ? await db.$queryRaw<
        (Omit<TableColumn, 'kind' | 'primaryKey' | 'holdsText'> & {
          typeName: string;
          typeCategory: string;
          typeId: string;
          holdsText: boolean | null;
          keyPosition: number | null;
          tableComment: string | null;
        })[]
      >`
        SELECT a.attname::text AS name,
               format_type(a.atttypid, a.atttypmod) AS "dataType",
               t.typname::text AS "typeName",
               t.typcategory::text AS "typeCategory",
               NOT a.attnotnull AS nullable,
               (a.atthasdef OR a.attidentity <> '' OR a.attgenerated <> '') AS "hasDefault",
               array_position(pk.conkey, a.attnum) AS "keyPosition",
               EXISTS (SELECT FROM pg_index AS i
                        WHERE i.indrelid = c.oid AND i.indisunique AND i.indpred IS NULL
                          AND i.indnkeyatts = 1 AND i.indkey[0] = a.attnum) AS "unique",
               CASE WHEN t.typname IN ('varchar', 'bpchar') AND a.atttypmod > 4
                    THEN a.atttypmod - 4 END AS "maxLength",
               -- A domain has its base type's category, but a domain over an array has no
               -- element type of its own: NULL then, looked for under its domains below.
               CASE WHEN t.typcategory IN ('S', 'E') THEN true
                    WHEN t.typcategory <> 'A' THEN false
                    WHEN t.typtype <> 'd' THEN (
                      SELECT element.typcategory IN ('S', 'E') FROM pg_type AS element
                      WHERE element.oid = t.typelem)
               END AS "holdsText",
               t.oid::text AS "typeId",
               col_description(c.oid, a.attnum) AS comment,
               obj_description(c.oid, 'pg_class') AS "tableComment",
               (SELECT target.relname::text FROM pg_constraint AS fk
                  JOIN pg_class AS target ON target.oid = fk.confrelid
                 WHERE fk.conrelid = c.oid AND fk.contype = 'f' AND a.attnum = ANY(fk.conkey)
                 ORDER BY fk.conname LIMIT 1) AS "references"
        FROM pg_class AS c
        JOIN pg_namespace AS n ON n.oid = c.relnamespace
        JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        JOIN pg_type AS t ON t.oid = a.atttypid
        LEFT JOIN pg_constraint AS pk ON pk.conrelid = c.oid AND pk.contype = 'p'
        WHERE n.nspname = ${schema} AND c.relname = ${table} AND c.relkind IN ('r', 'p')
        ORDER BY a.attnum`
    : [];
  if (rows.length === 0) {
    throw new MasterDataError('TABLE_NOT_FOUND', `No master table is named ${table}.`);
  }
  const textArrayDomains = await arrayDomainsOfText(
    db,
    rows.filter((row) => row.holdsText === null).map((row) => row.typeId),
  );
  const columns = rows.map(
    ({ typeName, typeCategory, typeId, keyPosition, holdsText, tableComment, ...column }) => ({
      ...column,
      // A range type (daterange, tstzrange...) holds a period: that of a valid-time table's rows.
      kind: KIND_BY_TYPE[typeName] ?? (typeCategory === 'R' ? 'period' : 'other'),
      primaryKey: keyPosition !== null,
      holdsText: holdsText ?? textArrayDomains.has(typeId),
    }),
  );
  const primaryKey = rows
    .filter((row) => row.keyPosition !== null)
    .sort((a, b) => (a.keyPosition ?? 0) - (b.keyPosition ?? 0))
    .map((row) => columns.find((column) => column.name === row.name) as TableColumn);
  return {
    name: table,
    qualifiedName: `${quoteIdentifier(schema)}.${quoteIdentifier(table)}`,
    columns,
    primaryKey,
    comment: rows[0]?.tableComment ?? null,
  };
}

/**
 * Those of the given domains over arrays (by type oid) whose array, under any further domains,
 * holds strings or enums.
 */
async function arrayDomainsOfText(db: Queryable, typeIds: string[]): Promise<Set<string>> {
  if (typeIds.length === 0) return new Set();
  const rows = await db.$queryRaw<{ typeId: string }[]>`
    WITH RECURSIVE under(domain, oid, base) AS (
      SELECT t.oid, t.oid, t.typbasetype FROM pg_type AS t WHERE t.oid = ANY(${typeIds}::oid[])
      UNION ALL
      SELECT under.domain, t.oid, t.typbasetype FROM pg_type AS t JOIN under ON t.oid = under.base
    )
    SELECT under.domain::text AS "typeId"
    FROM under
    JOIN pg_type AS array_type ON array_type.oid = under.oid
    JOIN pg_type AS element ON element.oid = array_type.typelem
    WHERE under.base = 0 AND element.typcategory IN ('S', 'E')`;
  return new Set(rows.map((row) => row.typeId));
}

/** The column named `name`, or a BAD_USER_INPUT error naming the table. */
export function requireColumn(table: MasterTable, name: string): TableColumn {
  const column = table.columns.find((candidate) => candidate.name === name);
  if (!column) {
    throw new MasterDataError('BAD_USER_INPUT', `${table.name} has no column named ${name}.`);
  }
  return column;
}
