import { Prisma, quoteIdentifier, type TransactionClient } from '@tablelock/db';
import { checkRuleSentence, readCheckRule } from '../errors/checkRule';
import type { RowErrorKind } from '../errors/rowErrorDetails';
import { rowName } from '../errors/rowName';
import { type ForeignKey, readForeignKeys } from '../foreignKeys';
import { columnRef } from '../sqlFragments';
import { type MasterTable, requireColumn, type TableColumn } from '../tableColumns';
import { readCheckConstraints, readUniqueRules } from '../tableRules';

/**
 * `{name: value, …}` as one jsonb expression, for any number of pairs of text values. Built
 * from two text arrays rather than with jsonb_build_object, which looks up each value's type
 * and output function in the catalog, every value of every row.
 */
function jsonObject(pairs: [string, Prisma.Sql][]): Prisma.Sql {
  if (pairs.length === 0) return Prisma.sql`'{}'::jsonb`;
  return Prisma.sql`jsonb_object(${pairs.map(([name]) => name)}::text[],
    ARRAY[${Prisma.join(pairs.map(([, value]) => value))}]::text[])`;
}

/** An error a row may have: when it has it, and it as a one-element jsonb array (else `[]`). */
interface RowErrorCheck {
  when: Prisma.Sql;
  error: Prisma.Sql;
}

/**
 * The error when `condition` holds; its details (RowErrorDetails: kind and facts) are
 * `{kind, column}` and the pairs given.
 */
const errorWhen = (
  condition: Prisma.Sql,
  column: string | null,
  code: string,
  message: Prisma.Sql,
  kind: RowErrorKind,
  facts: [string, Prisma.Sql][] = [],
): RowErrorCheck => ({
  when: condition,
  error: Prisma.sql`CASE WHEN ${condition} THEN jsonb_build_array(jsonb_build_object(
    'column', ${column}::text, 'code', ${code}::text, 'message', ${message},
    'details', jsonb_strip_nulls(jsonb_build_object('kind', ${kind}::text, 'column', ${column}::text
      ${Prisma.join(
        [
          Prisma.empty,
          ...facts.map(([name, value]) => Prisma.sql`${name}::text, (${value})::text`),
        ],
        ', ',
      )})))) ELSE '[]'::jsonb END`,
});

/**
 * A row's errors, in the order of `checks`. Most rows have none: their arrays are put together
 * (a jsonb `||` for each check, each building a new value) only for a row that has one.
 */
const rowErrors = (checks: RowErrorCheck[]) =>
  Prisma.sql`CASE WHEN ${Prisma.join(
    checks.map(({ when }) => Prisma.sql`(${when})`),
    ' OR ',
  )} THEN ${Prisma.join(
    checks.map(({ error }) => error),
    ' || ',
  )} ELSE '[]'::jsonb END`;
const fact = (value: string | undefined): Prisma.Sql => Prisma.sql`${value ?? null}::text`;

const raw = (name: string) => Prisma.raw(name);
const typeOf = (column: TableColumn) => Prisma.raw(column.dataType);
const notNullMessage = (column: TableColumn) =>
  Prisma.sql`${`${column.name} may not be empty.`}::text`;

/**
 * Classifies the rows of a file, staged in `tablelock.import_staging`, against the table as it
 * is now, in one statement, into `tablelock.import_dry_run_row`: create (no row has its key),
 * update (with the cells that change and their values now), unchanged, or error. Values are
 * checked by the database itself (`pg_input_is_valid` with each column's type: type, length,
 * precision), then NOT NULL, foreign keys, UNIQUE and CHECK constraints from the catalog, and
 * keys repeated in the file (the first row with a key is matched, later ones are errors). Compared as the database reads
 * them, so `12.5` in a file is the `12.50` of a numeric(12,2). Nothing of it passes through
 * the API, whatever the number of rows.
 */
export async function classifyStagedRows(
  tx: TransactionClient,
  table: MasterTable,
  fileColumns: (string | null)[],
  dryRunId: string,
  scope?: ImportScope,
): Promise<void> {
  // A column mapped to none (null) stays in the staged cells, by its place, and is not read.
  const columns = fileColumns.flatMap((name, index) =>
    name === null
      ? []
      : [
          {
            index,
            column: requireColumn(table, name),
            cell: raw(`f${index}`),
            normal: raw(`n${index}`),
            bad: raw(`b${index}`),
            now: raw(`now${index}`),
          },
        ],
  );
  const byName = new Map(columns.map((entry) => [entry.column.name, entry]));
  const inFile = (name: string) => byName.get(name);
  const key = table.primaryKey.map((column) => inFile(column.name) as (typeof columns)[number]);
  const foreignKeys = (await readForeignKeys(tx, table)).filter((fk) =>
    fk.columns.every((name) => byName.has(name)),
  );

  const cells = columns.map(
    ({ index, cell }) => Prisma.sql`staged.cells->>${Prisma.raw(String(index))} AS ${cell}`,
  );
  // Any text reads as text, as it is: a text column's cells are not read again.
  const checks = columns.map(({ column, cell, normal }) =>
    column.dataType === 'text'
      ? Prisma.sql`${cell} AS ${normal}`
      : Prisma.sql`CASE WHEN ${cell} IS NOT NULL AND pg_input_is_valid(${cell}, ${column.dataType})
        THEN (${cell}::${typeOf(column)})::text END AS ${normal}`,
  );
  // A value that is there but has no normal form did not read as its column's type: told by
  // the normal form rather than by reading the value a second time.
  const badValues = columns.map(
    ({ cell, normal, bad }) => Prisma.sql`(${cell} IS NOT NULL AND ${normal} IS NULL) AS ${bad}`,
  );
  const hasKey = Prisma.join(
    key.map(({ normal }) => Prisma.sql`${normal} IS NOT NULL`),
    ' AND ',
  );
  const keyNormals = Prisma.join(key.map(({ normal }) => normal));
  const matchesTarget = Prisma.join(
    key.map(
      ({ column, normal }) =>
        Prisma.sql`import_target.${columnRef(column)} = keyed.${normal}::${typeOf(column)}`,
    ),
    ' AND ',
  );
  const nowValues = columns.map(
    ({ column, now }) => Prisma.sql`import_target.${columnRef(column)}::text AS ${now}`,
  );
  const foreignKeyJoins = foreignKeys.map((fk, k) => foreignKeyJoin(table, fk, k, inFile));
  const uniqueRules = (await readUniqueRules(tx, table)).filter((rule) =>
    rule.columns.every((name) => byName.has(name)),
  );
  const uniques = uniqueRules.map((rule, k) => uniqueChecks(table, rule.columns, k, inFile));
  const checkRules = (await readCheckConstraints(tx, table)).filter((rule) =>
    rule.columns.some((name) => byName.has(name)),
  );
  const checkJoins = checkRules.map((rule, k) => checkJoin(table, rule, k, inFile));

  const scopeCheck = scope && outOfScopeCheck(table, scope, inFile);
  const missingColumns = table.columns.filter(
    (column) => !column.nullable && !column.hasDefault && !byName.has(column.name),
  );
  const errors: RowErrorCheck[] = [
    ...(scopeCheck ? [scopeCheck.error] : []),
    ...columns.map(({ column, cell, bad }) =>
      errorWhen(
        bad,
        column.name,
        'INVALID_VALUE',
        Prisma.sql`(pg_input_error_info(${cell}, ${column.dataType})).message`,
        'INVALID_VALUE',
        [['value', cell]],
      ),
    ),
    ...table.columns
      .filter((column) => !column.nullable && !column.hasDefault && byName.has(column.name))
      .map((column) =>
        errorWhen(
          Prisma.sql`${inFile(column.name)?.cell} IS NULL`,
          column.name,
          'NOT_NULL',
          notNullMessage(column),
          'NOT_NULL',
        ),
      ),
    errorWhen(
      Prisma.sql`has_key AND first_line <> line`,
      null,
      'DUPLICATE_KEY',
      Prisma.sql`'Row ' || first_line || ' of the file has the same key.'`,
      'DUPLICATE_KEY',
      [['row', Prisma.sql`first_line`]],
    ),
    ...uniques.flatMap((unique) => unique.errors),
    ...checkRules.map((rule, k) => {
      const read = readCheckRule(rule.definition);
      return errorWhen(
        Prisma.sql`NOT ${raw(`check${k}_ok`)}`,
        rule.columns.length === 1 ? (rule.columns[0] ?? null) : null,
        'CHECK',
        Prisma.sql`${checkRuleSentence(read)}::text`,
        'CHECK',
        'rule' in read
          ? [['rule', fact(read.rule)]]
          : [
              ['column', fact(read.column)],
              ['comparison', fact(read.comparison)],
              ['bound', fact(read.bound)],
              ['upperBound', fact(read.upperBound)],
            ],
      );
    }),
    ...foreignKeys.map((fk, k) =>
      errorWhen(
        Prisma.sql`${Prisma.join(
          fk.columns.map((name) => Prisma.sql`${inFile(name)?.normal} IS NOT NULL`),
          ' AND ',
        )} AND NOT ${raw(`fk${k}_found`)}`,
        fk.columns.join(', '),
        'FOREIGN_KEY',
        Prisma.sql`${`${fk.targetTable} has no row with ${fk.targetColumns.join(', ')} = `}::text
          || concat_ws(', ', ${Prisma.join(fk.columns.map((name) => inFile(name)?.normal as Prisma.Sql))}) || '.'`,
        'MISSING_REFERENCE',
        [
          [
            'value',
            Prisma.sql`concat_ws(', ', ${Prisma.join(fk.columns.map((name) => inFile(name)?.normal as Prisma.Sql))})`,
          ],
          ['table', fact(fk.targetTable)],
          ['targetColumn', fact(fk.targetColumns.join(', '))],
        ],
      ),
    ),
    // An existing row may not be emptied in a NOT NULL column (one with a default: a new row
    // may leave it empty; those without got their error above).
    ...columns
      .filter(({ column }) => !column.nullable && column.hasDefault)
      .map(({ column, normal, bad, now }) =>
        errorWhen(
          Prisma.sql`found AND NOT ${bad} AND ${normal} IS NULL AND ${now} IS NOT NULL`,
          column.name,
          'NOT_NULL',
          notNullMessage(column),
          'NOT_NULL',
        ),
      ),
    // A new row needs the NOT NULL columns without a default that the file does not have.
    ...(missingColumns.length > 0
      ? [
          {
            when: Prisma.sql`NOT found`,
            error: Prisma.sql`CASE WHEN found THEN '[]'::jsonb ELSE ${JSON.stringify(
              missingColumns.map((column) => ({
                column: column.name,
                details: { kind: 'NOT_NULL', column: column.name },
                code: 'NOT_NULL',
                message: `${column.name} may not be empty, and the file has no such column.`,
              })),
            )}::jsonb END`,
          },
        ]
      : []),
  ];
  const changes = columns.map(({ column, normal, bad, now }) => ({
    name: column.name,
    changes: Prisma.sql`(found AND NOT ${bad} AND ${normal} IS DISTINCT FROM ${now})`,
  }));
  const namesWhere = (when: (changes: Prisma.Sql) => Prisma.Sql) =>
    Prisma.sql`array_remove(ARRAY[${Prisma.join(
      changes.map(
        ({ name, changes }) => Prisma.sql`CASE WHEN ${when(changes)} THEN ${name}::text END`,
      ),
    )}]::text[], NULL)`;
  const changed = namesWhere((changes) => changes);
  // The values now of the cells that change: the row's values now without the others (rather
  // than picked from them one by one, a subquery for each row).
  const unchanged = namesWhere((changes) => Prisma.sql`NOT ${changes}`);

  // The classification sorts and hashes the whole file (repeated keys and unique values, the
  // file's own rows as reference targets): in the default 4 MB these spill to disk, at
  // 100,000 rows twice over. Only for this transaction.
  await tx.$executeRaw`SET LOCAL work_mem = '64MB'`;
  await tx.$executeRaw`
    INSERT INTO tablelock.import_dry_run_row
      (dry_run_id, line, outcome, key, version, "values", changed, previous, errors)
    WITH file AS (
      SELECT staged.line, ${Prisma.join(cells)}
      FROM tablelock.import_staging AS staged WHERE staged.dry_run_id = ${dryRunId}::uuid
    ), checked AS (
      SELECT file.*, ${Prisma.join(checks)} FROM file
    ), keyed AS (
      SELECT checked.*, ${Prisma.join(badValues)}, (${hasKey}) AS has_key,
             first_value(line) OVER (PARTITION BY (${hasKey}), ${keyNormals} ORDER BY line) AS first_line
             ${uniques.length > 0 ? Prisma.sql`, ${Prisma.join(uniques.map((unique) => unique.firstLine))}` : Prisma.empty}
      FROM checked
    ), matched AS (
      SELECT keyed.*, import_target.xmin::text AS version, import_target.xmin IS NOT NULL AS found,
             ${Prisma.join(nowValues)}
             ${foreignKeyJoins.length > 0 ? Prisma.sql`, ${Prisma.join(foreignKeyJoins.map((join) => join.found))}` : Prisma.empty}
             ${uniques.length > 0 ? Prisma.sql`, ${Prisma.join(uniques.map((unique) => unique.holder))}` : Prisma.empty}
             ${checkJoins.length > 0 ? Prisma.sql`, ${Prisma.join(checkJoins.map((join) => join.ok))}` : Prisma.empty}
             ${scopeCheck ? Prisma.sql`, ${scopeCheck.now}` : Prisma.empty}
      FROM keyed
      LEFT JOIN ${raw(table.qualifiedName)} AS import_target
        ON keyed.has_key AND keyed.first_line = keyed.line AND ${matchesTarget}
      ${
        foreignKeyJoins.length > 0
          ? Prisma.join(
              foreignKeyJoins.map((join) => join.from),
              ' ',
            )
          : Prisma.empty
      }
      ${Prisma.join([Prisma.empty, ...uniques.map((unique) => unique.from)], ' ')}
      ${Prisma.join([Prisma.empty, ...checkJoins.map((join) => join.from)], ' ')}
    ), classified AS (
      SELECT line, version, found,
             CASE WHEN has_key THEN ${jsonObject(key.map(({ column, normal }) => [column.name, normal]))} END AS key,
             ${jsonObject(columns.map(({ column, cell }) => [column.name, cell]))} AS "values",
             CASE WHEN cardinality(computed.changed) > 0
               THEN (${jsonObject(columns.map(({ column, now }) => [column.name, now]))}) - computed.unchanged
             END AS previous,
             computed.changed, computed.errors
      FROM matched
      -- OFFSET 0 keeps the planner from copying these long expressions into every place below
      -- that reads them: computed once per row instead of a dozen times.
      CROSS JOIN LATERAL (SELECT ${changed} AS changed, ${unchanged} AS unchanged,
                                 ${rowErrors(errors)} AS errors
                          OFFSET 0) AS computed
    )
    SELECT ${dryRunId}::uuid, line,
           CASE WHEN jsonb_array_length(errors) > 0 THEN 'error'
                WHEN found AND cardinality(changed) > 0 THEN 'update'
                WHEN found THEN 'unchanged' ELSE 'create' END,
           key, version, "values", changed, previous, errors
    FROM classified`;
}

/** The row scope a dry run keeps to: its values of the table's row-lock column. */
export interface ImportScope {
  column: string;
  rows: string[];
  /** The scope's own token: another scope holding a value is named as its holder. */
  token: string;
}

/**
 * A row outside the scope (OUT_OF_SCOPE, as the write guard would refuse it): an existing row
 * whose row-lock column is not one of the scope's values, or a row that would have another
 * value after the import (the file's; for a new row the file does not give it, none).
 */
function outOfScopeCheck(
  table: MasterTable,
  scope: ImportScope,
  inFile: (name: string) => { normal: Prisma.Sql; bad: Prisma.Sql } | undefined,
) {
  const column = requireColumn(table, scope.column);
  const now = raw('scope_now');
  const given = inFile(column.name);
  const after = given
    ? Prisma.sql`CASE WHEN ${given.bad} THEN ${now} ELSE ${given.normal} END`
    : Prisma.sql`CASE WHEN found THEN ${now} END`;
  const inside = (value: Prisma.Sql) =>
    Prisma.sql`coalesce(${value} = ANY (${scope.rows}::text[]), false)`;
  const outside = Prisma.sql`CASE WHEN found AND NOT ${inside(now)} THEN ${now} ELSE ${after} END`;
  const holder = Prisma.sql`(SELECT min(held.editor) FROM tablelock.row_lock AS held
    WHERE held.table_name = ${table.name} AND held.fencing_token <> ${scope.token}::bigint
      AND ${outside} = ANY (held.rows))`;
  return {
    now: Prisma.sql`import_target.${columnRef(column)}::text AS ${now}`,
    error: errorWhen(
      Prisma.sql`(found AND NOT ${inside(now)}) OR NOT ${inside(after)}`,
      column.name,
      'OUT_OF_SCOPE',
      Prisma.sql`format('%s %s is outside your row scope (%s): %s.', ${column.name}::text,
        coalesce(${outside}, 'null'), ${scope.rows.join(', ')}::text,
        coalesce(${holder} || ' holds it', 'nobody holds it; take a scope that names it'))`,
      'OUT_OF_SCOPE',
      [
        ['value', outside],
        ['holder', holder],
      ],
    ),
  };
}

/**
 * Whether each row's reference through `fk` names a row: of the target table, or, for a key
 * of the table to itself, one the same file has (which it would create).
 */
function foreignKeyJoin(
  table: MasterTable,
  fk: ForeignKey,
  k: number,
  inFile: (name: string) => { column: TableColumn; normal: Prisma.Sql } | undefined,
) {
  const target = raw(`fk${k}_target`);
  const here = raw(`fk${k}_here`);
  const source = fk.columns.map(
    (name) => inFile(name) as { column: TableColumn; normal: Prisma.Sql },
  );
  const sourceValue = (index: number) =>
    Prisma.sql`keyed.${source[index]?.normal}::${typeOf(source[index]?.column as TableColumn)}`;
  const targetColumn = (name: string) => Prisma.sql`${target}.${Prisma.raw(quoteIdentifier(name))}`;
  const matched = fk.period ? fk.targetColumns.slice(0, -1) : fk.targetColumns;
  const targetMatch = Prisma.join(
    matched.map((name, index) => Prisma.sql`${targetColumn(name)} = ${sourceValue(index)}`),
    ' AND ',
  );
  let from = Prisma.sql`LEFT JOIN ${raw(fk.targetQualifiedName)} AS ${target} ON ${targetMatch}`;
  let found = Prisma.sql`${target}.ctid IS NOT NULL`;
  if (fk.period) {
    // The rows the other columns name must, together, cover the row's period.
    const periodIndex = fk.targetColumns.length - 1;
    const period = targetColumn(fk.targetColumns[periodIndex] ?? '');
    from = Prisma.sql`LEFT JOIN LATERAL (
        SELECT true AS covered FROM ${raw(fk.targetQualifiedName)} AS ${target}
        WHERE ${targetMatch} HAVING range_agg(${period}) @> ${sourceValue(periodIndex)}
      ) AS ${target} ON true`;
    return { from, found: Prisma.sql`(${target}.covered IS NOT NULL) AS ${raw(`fk${k}_found`)}` };
  }
  const targetsInFile = fk.targetColumns.map(inFile);
  if (
    fk.targetQualifiedName === table.qualifiedName &&
    targetsInFile.every((entry) => entry !== undefined)
  ) {
    const targets = targetsInFile as { normal: Prisma.Sql }[];
    from = Prisma.sql`${from}
      LEFT JOIN (SELECT DISTINCT ${Prisma.join(targets.map(({ normal }, index) => Prisma.sql`${normal} AS ${raw(`t${index}`)}`))}
                 FROM checked) AS ${here}
        ON ${Prisma.join(
          source.map(
            ({ normal }, index) => Prisma.sql`${here}.${raw(`t${index}`)} = keyed.${normal}`,
          ),
          ' AND ',
        )}`;
    found = Prisma.sql`(${found} OR ${here}.t0 IS NOT NULL)`;
  }
  return { from, found: Prisma.sql`${found} AS ${raw(`fk${k}_found`)}` };
}

type FileColumn = { column: TableColumn; normal: Prisma.Sql };

/**
 * A UNIQUE rule over columns the file has: a value set a row above in the file already has,
 * and one another row of the table has (unless the file gives that row another value).
 */
function uniqueChecks(
  table: MasterTable,
  columns: string[],
  k: number,
  inFile: (name: string) => FileColumn | undefined,
) {
  const source = columns.map((name) => inFile(name) as FileColumn);
  const holder = raw(`u${k}_holder`);
  const firstLine = raw(`u${k}_first`);
  const holderKey = raw(`u${k}_key`);
  const complete = Prisma.join(
    source.map(({ normal }) => Prisma.sql`${normal} IS NOT NULL`),
    ' AND ',
  );
  const value = Prisma.sql`concat_ws(', ', ${Prisma.join(source.map(({ normal }) => normal))})`;
  const keyText = (alias: Prisma.Sql) =>
    Prisma.sql`concat_ws(', ', ${Prisma.join(
      table.primaryKey.map((column) => Prisma.sql`${alias}.${columnRef(column)}::text`),
    )})`;
  const sameRow = Prisma.join(
    table.primaryKey.map(
      (column) =>
        Prisma.sql`${holder}.${columnRef(column)} IS NOT DISTINCT FROM import_target.${columnRef(column)}`,
    ),
    ' AND ',
  );
  // The row of the file that names the holder (the first with its key), joined by hash rather
  // than looked for row by row, and whether it gives the holder other values.
  const mover = raw(`u${k}_mover`);
  const keyNormals = table.primaryKey.map((column) => (inFile(column.name) as FileColumn).normal);
  const movers = Prisma.sql`LEFT JOIN (
      SELECT DISTINCT ON (${Prisma.join(keyNormals)}) ${Prisma.join(
        [...keyNormals, ...source.map(({ normal }) => normal)].map(
          (normal, index) => Prisma.sql`${normal} AS ${raw(`m${index}`)}`,
        ),
      )}
      FROM checked ORDER BY ${Prisma.join(keyNormals)}, line) AS ${mover}
    ON ${Prisma.join(
      table.primaryKey.map(
        (column, index) =>
          Prisma.sql`${mover}.${raw(`m${index}`)} = ${holder}.${columnRef(column)}::text`,
      ),
      ' AND ',
    )}`;
  const movesAway = Prisma.sql`(${Prisma.join(
    columns.map(
      (name, index) =>
        Prisma.sql`${mover}.${raw(`m${keyNormals.length + index}`)} IS DISTINCT FROM ${holder}.${Prisma.raw(quoteIdentifier(name))}::text`,
    ),
    ' OR ',
  )})`;
  const moverFound = Prisma.sql`${mover}.${raw('m0')} IS NOT NULL`;
  return {
    firstLine: Prisma.sql`CASE WHEN ${complete} THEN first_value(line) OVER (
        PARTITION BY (${complete}), ${Prisma.join(source.map(({ normal }) => normal))} ORDER BY line)
      END AS ${firstLine}`,
    from: Prisma.sql`LEFT JOIN ${raw(table.qualifiedName)} AS ${holder} ON ${Prisma.join(
      source.map(
        ({ column, normal }) =>
          Prisma.sql`${holder}.${columnRef(column)} = keyed.${normal}::${typeOf(column)}`,
      ),
      ' AND ',
    )} ${movers}`,
    holder: Prisma.sql`CASE WHEN ${holder}.ctid IS NOT NULL AND NOT (${sameRow})
        AND NOT (${moverFound} AND ${movesAway})
      THEN ${keyText(holder)} END AS ${holderKey}`,
    errors: [
      errorWhen(
        // A row whose key is repeated is an error already: its other values say nothing more.
        Prisma.sql`${firstLine} <> line AND NOT (has_key AND first_line <> line)`,
        columns[0] ?? null,
        'UNIQUE',
        Prisma.sql`${value} || ' is also in row ' || ${firstLine} || ' of the file.'`,
        'DUPLICATE_IN_FILE',
        [
          ['value', value],
          ['row', firstLine],
        ],
      ),
      errorWhen(
        Prisma.sql`${firstLine} = line AND ${holderKey} IS NOT NULL`,
        columns[0] ?? null,
        'UNIQUE',
        Prisma.sql`${value} || ' is already used by ' || ${`${rowName(table.name, '')}`}::text || ${holderKey} || '.'`,
        'DUPLICATE',
        [
          ['value', value],
          ['table', fact(table.name)],
          ['row', holderKey],
        ],
      ),
    ],
  };
}

/**
 * Whether the row as it would be written keeps a CHECK rule: the rule, as Postgres holds it,
 * evaluated over the file's values and, for columns the file lacks, the row's values now.
 * A rule that is NULL holds, as in Postgres. Only the columns the rule reads are given to it:
 * each is read as its type again, for every row.
 */
function checkJoin(
  table: MasterTable,
  rule: { columns: string[]; expression: string },
  k: number,
  inFile: (name: string) => FileColumn | undefined,
) {
  const candidate = rule.columns.map((name) => {
    const column = requireColumn(table, name);
    const given = inFile(name);
    const value = given
      ? Prisma.sql`keyed.${given.normal}::${typeOf(column)}`
      : Prisma.sql`import_target.${columnRef(column)}`;
    return Prisma.sql`${value} AS ${columnRef(column)}`;
  });
  const verdict = raw(`check${k}`);
  // The rule's SQL comes from the catalog (pg_get_expr), written by whoever made the table.
  return {
    from: Prisma.sql`CROSS JOIN LATERAL (
      SELECT coalesce((${Prisma.raw(rule.expression)}), true) AS ok
      FROM (SELECT ${Prisma.join(candidate)}) AS candidate) AS ${verdict}`,
    ok: Prisma.sql`${verdict}.ok AS ${raw(`check${k}_ok`)}`,
  };
}
