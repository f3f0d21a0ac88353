import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getDMMF } from '@prisma/get-dmmf';
import { poll } from '@tablelock/test-support';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  applyMigrations,
  createDatabase,
  createPrismaClient,
  migrationsDir,
  type PrismaClient,
  withDatabase,
} from '../src';

const schemaPath = new URL('../../../prisma/schema.prisma', import.meta.url).pathname;

const clients: PrismaClient[] = [];
afterAll(() => Promise.all(clients.map((client) => client.$disconnect())));

/** An empty database of its own on the run's server: applyMigrations starts from nothing. */
async function freshDatabase(label: string): Promise<{ url: string; prisma: PrismaClient }> {
  const name = `${label}_${randomUUID().replaceAll('-', '')}`;
  await createDatabase(inject('adminUrl'), name);
  const url = withDatabase(inject('adminUrl'), name);
  const prisma = createPrismaClient(url, { poolSize: 2 });
  clients.push(prisma);
  return { url, prisma };
}

async function migrationNames(directory = migrationsDir): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

interface MigrationRow {
  id: string;
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
}

function migrationRows(prisma: PrismaClient): Promise<MigrationRow[]> {
  return prisma.$queryRaw<MigrationRow[]>`
    SELECT id, migration_name, checksum, finished_at, rolled_back_at, applied_steps_count
    FROM _prisma_migrations ORDER BY migration_name, id`;
}

describe('applyMigrations', () => {
  it('applies every migration to an empty database once, and a second run does nothing', async () => {
    const names = await migrationNames();
    expect(names.length).toBeGreaterThan(0);
    const { url, prisma } = await freshDatabase('migrate_once');

    expect(await applyMigrations(url)).toEqual(names);
    const afterFirst = await migrationRows(prisma);
    // A row of data must survive the second run: a re-applied migration would recreate tables.
    await prisma.tableLock.create({ data: { tableName: 'survivor' } });

    expect(await applyMigrations(url)).toEqual([]);
    expect(await migrationRows(prisma)).toEqual(afterFirst);
    expect(await prisma.tableLock.count({ where: { tableName: 'survivor' } })).toBe(1);
  });

  it('records one finished row per migration with the sha256 of its file, as prisma migrate does', async () => {
    const names = await migrationNames();
    const { url, prisma } = await freshDatabase('migrate_rows');
    await applyMigrations(url);

    const rows = await migrationRows(prisma);
    const expected = await Promise.all(
      names.map(async (name) => {
        const sql = await readFile(join(migrationsDir, name, 'migration.sql'));
        return { name, checksum: createHash('sha256').update(sql).digest('hex') };
      }),
    );
    expect(rows.map((row) => ({ name: row.migration_name, checksum: row.checksum }))).toEqual(
      expected,
    );
    for (const row of rows) {
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
  });

  it('lets two concurrent runs on one database apply each migration exactly once', async () => {
    const names = await migrationNames();
    const { url, prisma } = await freshDatabase('migrate_concurrent');

    const [first, second] = await Promise.all([applyMigrations(url), applyMigrations(url)]);
    expect([...first, ...second].sort()).toEqual(names);
    expect((await migrationRows(prisma)).map((row) => row.migration_name)).toEqual(names);
  });

  it('applies a migration again when Postgres chose it as the victim of a deadlock with the running app', async () => {
    const { url, prisma } = await freshDatabase('migrate_deadlock');
    const directory = await mkdtemp(join(tmpdir(), 'tablelock-migrations-'));
    const write = async (name: string, sql: string) => {
      await mkdir(join(directory, name));
      await writeFile(join(directory, name, 'migration.sql'), sql);
    };
    try {
      await write('20000101000000_tables', 'CREATE TABLE a (id int); CREATE TABLE b (id int);');
      await applyMigrations(url, directory);
      await write(
        '20000101000001_columns',
        'ALTER TABLE a ADD COLUMN x int; ALTER TABLE b ADD COLUMN y int;',
      );
      // The app, as during a rolling upgrade: it reads b, then a, in one transaction.
      const app = new pg.Client({ connectionString: url });
      await app.connect();
      try {
        // Postgres cancels the backend whose deadlock check runs first, a deadlock_timeout after
        // it began to wait: on a busy machine the app's could come first. Its own timeout of a
        // minute leaves the check, and so the cancellation, to the migration's (1 s).
        await app.query(`SET deadlock_timeout = '60s'`);
        await app.query('BEGIN');
        await app.query('SELECT count(*) FROM b');
        const migrating = applyMigrations(url, directory);
        // The migration holds a and waits for b: the app's read of a closes the circle, and the
        // migration is the one Postgres cancels.
        await poll('the migration waiting for b', 30_000, async () => {
          const { rows } = await app.query<{ waiting: boolean }>(
            `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE relation = 'b'::regclass AND NOT granted) AS waiting`,
          );
          return rows[0]?.waiting ? true : undefined;
        });
        await app.query('SELECT count(*) FROM a');
        await app.query('COMMIT');
        expect(await migrating).toEqual(['20000101000001_columns']);
      } finally {
        await app.end();
      }
      const rows = await prisma.$queryRaw<{ name: string }[]>`
        SELECT table_name || '.' || column_name AS name FROM information_schema.columns
        WHERE column_name IN ('x', 'y') ORDER BY 1`;
      expect(rows.map((row) => row.name)).toEqual(['a.x', 'b.y']);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('throws when an applied migration file was changed, before applying any newer one', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'tablelock-migrations-'));
    try {
      await cp(migrationsDir, directory, { recursive: true });
      const names = await migrationNames(directory);
      const { url, prisma } = await freshDatabase('migrate_changed');
      expect(await applyMigrations(url, directory)).toEqual(names);
      const before = await migrationRows(prisma);

      const changed = names[0] as string;
      await appendFile(join(directory, changed, 'migration.sql'), '\n-- edited afterwards\n');
      // Sorts after every real migration, so it would run if the changed one were let through.
      const newer = '99999999999999_newer';
      await mkdir(join(directory, newer));
      await writeFile(
        join(directory, newer, 'migration.sql'),
        'CREATE TABLE "tablelock"."newer" (id integer PRIMARY KEY);',
      );

      await expect(applyMigrations(url, directory)).rejects.toThrow(
        `Migration ${changed} was changed after it was applied.`,
      );
      expect(await migrationRows(prisma)).toEqual(before);
      const [newerTable] = await prisma.$queryRaw<{ regclass: string | null }[]>`
        SELECT to_regclass('tablelock.newer')::text AS regclass`;
      expect(newerTable?.regclass).toBeNull();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

// Drift guard: prisma/schema.prisma and the SQL migrations are written by hand, separately
// (no schema engine here to generate one from the other), so nothing else keeps them in step.

/** How a Prisma scalar type is stored. Keyed by type, plus `@db.<native>` when the field has one. */
const POSTGRES_TYPES: Record<string, { dataType: string; udtName: string }> = {
  String: { dataType: 'text', udtName: 'text' },
  Int: { dataType: 'integer', udtName: 'int4' },
  DateTime: { dataType: 'timestamp without time zone', udtName: 'timestamp' },
  'DateTime @db.Timestamptz': { dataType: 'timestamp with time zone', udtName: 'timestamptz' },
  Boolean: { dataType: 'boolean', udtName: 'bool' },
  BigInt: { dataType: 'bigint', udtName: 'int8' },
  Json: { dataType: 'jsonb', udtName: 'jsonb' },
  'String @db.Uuid': { dataType: 'uuid', udtName: 'uuid' },
};

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: string;
  type: string;
  isRequired: boolean;
  isList: boolean;
  isId: boolean;
  nativeType?: readonly [string, readonly string[]] | null;
}

interface ColumnRow {
  column_name: string;
  is_nullable: string;
  data_type: string;
  udt_schema: string;
  udt_name: string;
}

/** What information_schema.columns should say about a field (minus its name). */
function expectedColumn(
  field: DmmfField,
  schema: string,
  enumDbNames: Map<string, string>,
): Omit<ColumnRow, 'column_name'> {
  let element: { dataType: string; udtName: string; udtSchema: string };
  if (field.kind === 'enum') {
    const udtName = enumDbNames.get(field.type);
    if (!udtName) throw new Error(`Field ${field.name} has an unknown enum type ${field.type}`);
    // The DMMF does not say which schema an enum is in; ours sit beside the tables using them.
    element = { dataType: 'USER-DEFINED', udtName, udtSchema: schema };
  } else if (field.kind === 'scalar') {
    const key = field.nativeType ? `${field.type} @db.${field.nativeType[0]}` : field.type;
    const mapped = POSTGRES_TYPES[key];
    if (!mapped) throw new Error(`No Postgres type known for ${field.name}: ${key}`);
    element = { ...mapped, udtSchema: 'pg_catalog' };
  } else {
    throw new Error(`Field ${field.name} is a ${field.kind}, which this guard does not cover`);
  }
  return {
    is_nullable: field.isRequired ? 'NO' : 'YES',
    // Postgres names an array type after its element type with a leading underscore.
    data_type: field.isList ? 'ARRAY' : element.dataType,
    udt_schema: element.udtSchema,
    udt_name: field.isList ? `_${element.udtName}` : element.udtName,
  };
}

/**
 * The `Unsupported("<type>")` and `Unsupported("<schema>.<type>")` fields of each model by its
 * database name: the DMMF leaves them out, so they are read from the schema's text.
 */
function unsupportedColumns(datamodel: string): Map<string, ColumnRow[]> {
  const byTable = new Map<string, ColumnRow[]>();
  for (const [, name = '', body = ''] of datamodel.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? name;
    const fields = body.matchAll(/^\s+(\w+)\s+Unsupported\("(?:(\w+)\.)?(\w+)"\)(\?)?(.*)$/gm);
    for (const [, field = '', typeSchema, type = '', optional, rest = ''] of fields) {
      const column = /@map\("([^"]+)"\)/.exec(rest)?.[1] ?? field;
      const row = {
        column_name: column,
        is_nullable: optional ? 'YES' : 'NO',
        // A type of our own (named with its schema) is USER-DEFINED to information_schema.
        data_type: typeSchema ? 'USER-DEFINED' : type,
        udt_schema: typeSchema ?? 'pg_catalog',
        udt_name: type,
      };
      byTable.set(table, [...(byTable.get(table) ?? []), row]);
    }
  }
  return byTable;
}

describe('the migrated database', () => {
  it('matches prisma/schema.prisma: tables, columns, primary keys and enums', async () => {
    const datamodel = readFileSync(schemaPath, 'utf8');
    const unsupported = unsupportedColumns(datamodel);
    const dmmf = await getDMMF({ datamodel });
    if (!('datamodel' in dmmf)) throw dmmf.error;
    const { models, enums } = dmmf.datamodel;
    const enumDbNames = new Map(enums.map((e) => [e.name, e.dbName ?? e.name]));
    expect(models.length).toBeGreaterThan(0);
    const { url, prisma } = await freshDatabase('migrate_drift');
    await applyMigrations(url);

    const schemas = [...new Set(models.map((model) => model.schema ?? 'public'))];
    for (const schema of schemas) {
      const tables = await prisma.$queryRaw<{ table_name: string }[]>`
        SELECT table_name::text FROM information_schema.tables
        WHERE table_schema = ${schema} AND table_type = 'BASE TABLE'`;
      const modelTables = models
        .filter((model) => (model.schema ?? 'public') === schema)
        .map((model) => model.dbName ?? model.name);
      expect(tables.map((table) => table.table_name).sort(), `tables in ${schema}`).toEqual(
        modelTables.sort(),
      );
    }

    for (const model of models) {
      const schema = model.schema ?? 'public';
      const table = model.dbName ?? model.name;
      const fields = model.fields as readonly DmmfField[];
      const columns = await prisma.$queryRaw<ColumnRow[]>`
        SELECT column_name::text, is_nullable::text, data_type::text,
               udt_schema::text, udt_name::text
        FROM information_schema.columns
        WHERE table_schema = ${schema} AND table_name = ${table}
        ORDER BY column_name`;
      const expected = fields
        .filter((field) => field.kind !== 'object')
        .map((field) => ({
          column_name: field.dbName ?? field.name,
          ...expectedColumn(field, schema, enumDbNames),
        }))
        .concat(unsupported.get(table) ?? [])
        .sort((a, b) => (a.column_name < b.column_name ? -1 : 1));
      expect(columns, `columns of ${schema}.${table}`).toEqual(expected);

      const idFields = model.primaryKey?.fields ?? fields.filter((f) => f.isId).map((f) => f.name);
      const columnOf = (name: string) => {
        const field = fields.find((f) => f.name === name);
        return field?.dbName ?? name;
      };
      const primaryKey = await prisma.$queryRaw<{ column_name: string }[]>`
        SELECT k.column_name::text
        FROM information_schema.table_constraints c
        JOIN information_schema.key_column_usage k
          ON k.constraint_schema = c.constraint_schema AND k.constraint_name = c.constraint_name
        WHERE c.table_schema = ${schema} AND c.table_name = ${table}
          AND c.constraint_type = 'PRIMARY KEY'
        ORDER BY k.ordinal_position`;
      expect(
        primaryKey.map((k) => k.column_name),
        `primary key of ${schema}.${table}`,
      ).toEqual(idFields.map(columnOf));
    }

    expect(enums.length).toBeGreaterThan(0);
    for (const enumType of enums) {
      const name = enumType.dbName ?? enumType.name;
      const values = await prisma.$queryRaw<{ label: string }[]>`
        SELECT e.enumlabel::text AS label
        FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid
        JOIN pg_namespace n ON n.oid = t.typnamespace
        WHERE t.typname = ${name} AND n.nspname = ANY(${schemas})
        ORDER BY e.enumsortorder`;
      expect(
        values.map((v) => v.label),
        `values of enum ${name}`,
      ).toEqual(enumType.values.map((value) => value.dbName ?? value.name));
    }
  });
});
