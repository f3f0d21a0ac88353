import { Prisma, type Queryable, quoteIdentifier } from '@tablelock/db';
import { type ForeignKey, readForeignKeys } from '../foreignKeys';
import type { RowValues } from '../readRows';
import { columnRef, columnsAsJson } from '../sqlFragments';
import type { MasterTable, TableColumn } from '../tableColumns';
import type { ImportFile } from './importFile';
import type { ImportCellError, ImportRow } from './importReport';

/** A file row on its way to being classified. */
interface Candidate {
  row: ImportRow;
  /** Cells as the database reads them (`value::type::text`), for valid cells. */
  normal: RowValues;
}

/**
 * Classifies every row of a file against the table as it is now: create (no row has its key),
 * update (with the cells that change), unchanged, or error. The values are checked by the
 * database itself (`pg_input_is_valid` with each column's type: type, length, precision),
 * then NOT NULL and foreign keys from the catalog, and keys repeated in the file. Compared as
 * the database reads them, so `12.5` in a file is the `12.50` of a numeric(12,2).
 */
export async function classifyRows(
  db: Queryable,
  table: MasterTable,
  file: ImportFile,
): Promise<ImportRow[]> {
  const columns = file.columns.map((name) => table.columns.find((c) => c.name === name));
  const candidates: Candidate[] = file.rows.map(({ line, cells }) => ({
    row: {
      line,
      outcome: 'create',
      key: null,
      version: null,
      values: Object.fromEntries(file.columns.map((name, index) => [name, cells[index] ?? null])),
      changed: [],
      previous: null,
      errors: [],
    },
    // NULL is NULL in every type; the other cells are read by the database below.
    normal: Object.fromEntries(
      file.columns.flatMap((name, index) => (cells[index] == null ? [[name, null]] : [])),
    ),
  }));
  for (const column of columns as TableColumn[]) await checkValues(db, column, candidates);
  checkNotNull(table, file.columns, candidates);
  const keyed = keyRows(table, candidates);
  await checkForeignKeys(db, table, file.columns, candidates);
  await compareWithTable(db, table, file.columns, keyed);
  checkCreatesComplete(table, file.columns, candidates);
  for (const { row } of candidates) if (row.errors.length > 0) row.outcome = 'error';
  return candidates.map(({ row }) => row);
}

const addError = (candidate: Candidate, error: ImportCellError) => {
  candidate.row.errors.push(error);
};

/** Type, length and precision, as the column's type input function sees them. */
async function checkValues(db: Queryable, column: TableColumn, candidates: Candidate[]) {
  const given = candidates.filter(({ row }) => row.values[column.name] !== null);
  if (given.length === 0) return;
  // Most cells read back as written: only the others come back (a 100,000-row file is
  // 100,000 cells a column).
  const type = Prisma.raw(column.dataType);
  const checked = await db.$queryRaw<
    { ord: number; normal: string | null; error: string | null }[]
  >`
    SELECT cell.ord::int AS ord,
           CASE WHEN pg_input_is_valid(cell.value, ${column.dataType})
                THEN (cell.value::${type})::text END AS normal,
           (pg_input_error_info(cell.value, ${column.dataType})).message AS error
    FROM unnest(${given.map(({ row }) => row.values[column.name])}::text[])
         WITH ORDINALITY AS cell(value, ord)
    WHERE CASE WHEN pg_input_is_valid(cell.value, ${column.dataType})
               THEN (cell.value::${type})::text IS DISTINCT FROM cell.value
               ELSE true END`;
  for (const candidate of given) {
    candidate.normal[column.name] = candidate.row.values[column.name] ?? null;
  }
  for (const { ord, normal, error } of checked) {
    const candidate = given[ord - 1] as Candidate;
    if (error === null) {
      candidate.normal[column.name] = normal;
    } else {
      delete candidate.normal[column.name];
      addError(candidate, { column: column.name, code: 'INVALID_VALUE', message: error });
    }
  }
}

/**
 * An empty cell is NULL. A new row may leave a column with a default empty (the default
 * applies) or out of the file; an existing row keeps the columns the file does not have.
 */
function checkNotNull(table: MasterTable, fileColumns: string[], candidates: Candidate[]) {
  for (const column of table.columns.filter((c) => !c.nullable)) {
    const inFile = fileColumns.includes(column.name);
    // With a default, known only once matched: an update may not set it to NULL (see
    // compareWithTable), a create gets the default.
    if (!inFile || column.hasDefault) continue;
    for (const candidate of candidates) {
      if (candidate.row.values[column.name] === null) addError(candidate, notNull(column));
    }
  }
}

const notNull = (column: TableColumn): ImportCellError => ({
  column: column.name,
  code: 'NOT_NULL',
  message: `${column.name} may not be empty.`,
});

/** Rows with a valid key, by key; a key repeated in the file is an error on each later row. */
function keyRows(table: MasterTable, candidates: Candidate[]): Map<string, Candidate> {
  const byKey = new Map<string, Candidate>();
  for (const candidate of candidates) {
    const key = table.primaryKey.map((column) => candidate.normal[column.name]);
    if (key.some((value) => value === undefined || value === null)) continue;
    candidate.row.key = Object.fromEntries(
      table.primaryKey.map((column, index) => [column.name, key[index] ?? null]),
    );
    const identity = JSON.stringify(key);
    const first = byKey.get(identity);
    if (first) {
      addError(candidate, {
        column: null,
        code: 'DUPLICATE_KEY',
        message: `Row ${first.row.line} of the file has the same key.`,
      });
    } else {
      byKey.set(identity, candidate);
    }
  }
  return byKey;
}

/** Values that name a row of another table (or of this one) that does not exist. */
async function checkForeignKeys(
  db: Queryable,
  table: MasterTable,
  fileColumns: string[],
  candidates: Candidate[],
) {
  const foreignKeys = (await readForeignKeys(db, table)).filter((fk) =>
    fk.columns.every((name) => fileColumns.includes(name)),
  );
  for (const fk of foreignKeys) {
    const pointing = new Map<string, Candidate[]>();
    for (const candidate of candidates) {
      const tuple = fk.columns.map((name) => candidate.normal[name]);
      // MATCH SIMPLE: a NULL anywhere in the reference means there is nothing to check.
      if (tuple.some((value) => value === null || value === undefined)) continue;
      const identity = JSON.stringify(tuple);
      const same = pointing.get(identity);
      if (same) same.push(candidate);
      else pointing.set(identity, [candidate]);
    }
    if (pointing.size === 0) continue;
    const createdHere = selfReferenceTargets(table, fk, candidates);
    const missing = await missingTargets(db, table, fk, [...pointing.keys()]);
    for (const identity of missing) {
      if (createdHere.has(identity)) continue;
      for (const candidate of pointing.get(identity) ?? []) {
        addError(candidate, {
          column: fk.columns.join(', '),
          code: 'FOREIGN_KEY',
          message: `${fk.targetTable} has no row with ${fk.targetColumns.join(', ')} = ${JSON.parse(identity).join(', ')}.`,
        });
      }
    }
  }
}

/** For a key of the table to itself: the targets the file's own rows would create. */
function selfReferenceTargets(table: MasterTable, fk: ForeignKey, candidates: Candidate[]) {
  const targets = new Set<string>();
  if (fk.targetQualifiedName !== table.qualifiedName) return targets;
  for (const { normal } of candidates) {
    targets.add(JSON.stringify(fk.targetColumns.map((name) => normal[name])));
  }
  return targets;
}

async function missingTargets(
  db: Queryable,
  table: MasterTable,
  fk: ForeignKey,
  identities: string[],
): Promise<string[]> {
  const matches = fk.targetColumns.map((target, index) => {
    const source = table.columns.find((c) => c.name === fk.columns[index]) as TableColumn;
    return Prisma.sql`target.${Prisma.raw(quoteIdentifier(target))} =
      (wanted.tuple->>${index}::int)::${Prisma.raw(source.dataType)}`;
  });
  const rows = await db.$queryRaw<{ tuple: string }[]>`
    SELECT wanted.tuple::text AS tuple
    FROM jsonb_array_elements(${`[${identities.join(',')}]`}::jsonb) AS wanted(tuple)
    WHERE NOT EXISTS (SELECT 1 FROM ${Prisma.raw(fk.targetQualifiedName)} AS target
                      WHERE ${Prisma.join(matches, ' AND ')})`;
  // jsonb prints `["a", "b"]`; JSON.stringify wrote `["a","b"]`.
  return rows.map(({ tuple }) => JSON.stringify(JSON.parse(tuple)));
}

/** Matches rows by key: create for a key no row has; update or unchanged otherwise. */
async function compareWithTable(
  db: Queryable,
  table: MasterTable,
  fileColumns: string[],
  keyed: Map<string, Candidate>,
) {
  if (keyed.size === 0) return;
  const candidates = [...keyed.values()];
  const matches = table.primaryKey.map(
    (column) =>
      Prisma.sql`import_target.${columnRef(column)} =
        (import_key.value->'key'->>${column.name})::${Prisma.raw(column.dataType)}`,
  );
  const columns = fileColumns.map((name) => table.columns.find((c) => c.name === name));
  // Compared in the database: only the cells that differ come back, with their current values.
  const current = await db.$queryRaw<{ ord: number; version: string; previous: RowValues }[]>`
    SELECT import_key.ord::int AS ord, import_target.xmin::text AS version,
           (SELECT coalesce(jsonb_object_agg(cell.key, now.values->cell.key), '{}'::jsonb)
              FROM jsonb_each(import_key.value->'cells') AS cell(key, value)
             WHERE cell.value IS DISTINCT FROM now.values->cell.key) AS previous
    FROM jsonb_array_elements(${JSON.stringify(
      candidates.map(({ row, normal }) => ({ key: row.key, cells: normal })),
    )}::jsonb) WITH ORDINALITY AS import_key(value, ord)
    JOIN ${Prisma.raw(table.qualifiedName)} AS import_target ON ${Prisma.join(matches, ' AND ')}
    CROSS JOIN LATERAL (SELECT ${columnsAsJson(columns as TableColumn[])} AS values) AS now`;
  for (const { ord, version, previous } of current) {
    const candidate = candidates[ord - 1] as Candidate;
    const { row, normal } = candidate;
    row.version = version;
    row.changed = fileColumns.filter((name) => name in previous);
    for (const name of row.changed) {
      const column = table.columns.find((c) => c.name === name) as TableColumn;
      if (normal[name] === null && !column.nullable) addError(candidate, notNull(column));
    }
    row.previous = row.changed.length > 0 ? previous : null;
    row.outcome = row.changed.length > 0 ? 'update' : 'unchanged';
  }
}

/** A new row needs every NOT NULL column without a default, so the file must have it. */
function checkCreatesComplete(table: MasterTable, fileColumns: string[], candidates: Candidate[]) {
  const required = table.columns.filter(
    (column) => !column.nullable && !column.hasDefault && !fileColumns.includes(column.name),
  );
  for (const candidate of candidates) {
    if (candidate.row.version !== null) continue;
    for (const column of required) {
      addError(candidate, {
        ...notNull(column),
        message: `${column.name} may not be empty, and the file has no such column.`,
      });
    }
  }
}
