import { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData, quoteIdentifier } from '../src';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function baseTables(schema: string): Promise<string[]> {
  const rows = await database.prisma.$queryRaw<{ table_name: string }[]>`
    SELECT table_name::text FROM information_schema.tables
    WHERE table_schema = ${schema} AND table_type = 'BASE TABLE'
    ORDER BY table_name`;
  return rows.map((row) => row.table_name);
}

async function rowCounts(schema: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await baseTables(schema)) {
    const [row] = await database.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${quoteIdentifier(schema)}.${quoteIdentifier(table)}`,
    );
    counts[table] = row?.n ?? -1;
  }
  return counts;
}

// The lock logic is exercised against this data (FK fan-out, shared targets, self-references),
// so its shape is part of the contract, not an accident of the fixture.
describe('the demo master data', () => {
  it('has at least 8 tables, and products holds at least 100,000 rows', async () => {
    const counts = await rowCounts(MASTER_SCHEMA);
    expect(Object.keys(counts).length).toBeGreaterThanOrEqual(8);
    expect(counts.products).toBeGreaterThanOrEqual(100_000);
    for (const [table, count] of Object.entries(counts)) {
      expect(count, `rows in ${table}`).toBeGreaterThan(0);
    }
  });

  it('has a table with several FK targets, a table several tables reference, and a self-reference', async () => {
    const foreignKeys = await database.prisma.$queryRaw<{ source: string; target: string }[]>`
      SELECT src.relname::text AS source, dst.relname::text AS target
      FROM pg_constraint c
      JOIN pg_class src ON src.oid = c.conrelid
      JOIN pg_class dst ON dst.oid = c.confrelid
      JOIN pg_namespace n ON n.oid = src.relnamespace
      WHERE c.contype = 'f' AND n.nspname = ${MASTER_SCHEMA}`;
    const targetsOf = new Map<string, Set<string>>();
    const referrersOf = new Map<string, Set<string>>();
    for (const { source, target } of foreignKeys) {
      if (source === target) continue;
      targetsOf.set(source, (targetsOf.get(source) ?? new Set()).add(target));
      referrersOf.set(target, (referrersOf.get(target) ?? new Set()).add(source));
    }
    const maxSize = (sets: Map<string, Set<string>>) =>
      Math.max(0, ...[...sets.values()].map((set) => set.size));

    expect(maxSize(targetsOf)).toBeGreaterThanOrEqual(2);
    expect(maxSize(referrersOf)).toBeGreaterThanOrEqual(2);
    expect(foreignKeys.some(({ source, target }) => source === target)).toBe(true);
  });

  it('uses text, numeric, date and boolean columns, and has NULLs in nullable ones', async () => {
    const columns = await database.prisma.$queryRaw<
      { table_name: string; column_name: string; data_type: string; is_nullable: string }[]
    >`
      SELECT c.table_name::text, c.column_name::text, c.data_type::text, c.is_nullable::text
      FROM information_schema.columns c
      JOIN information_schema.tables t
        ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = ${MASTER_SCHEMA} AND t.table_type = 'BASE TABLE'`;
    for (const type of ['text', 'numeric', 'date', 'boolean']) {
      expect(columns.map((column) => column.data_type)).toContain(type);
    }

    const withNulls: string[] = [];
    for (const column of columns.filter((c) => c.is_nullable === 'YES')) {
      const table = `${quoteIdentifier(MASTER_SCHEMA)}.${quoteIdentifier(column.table_name)}`;
      const [row] = await database.prisma.$queryRawUnsafe<{ has_null: boolean }[]>(
        `SELECT EXISTS (SELECT 1 FROM ${table} WHERE ${quoteIdentifier(column.column_name)} IS NULL) AS has_null`,
      );
      if (row?.has_null) withNulls.push(`${column.table_name}.${column.column_name}`);
    }
    // More than one, in more than one table: a single stray NULL would not exercise much.
    expect(withNulls.length).toBeGreaterThanOrEqual(2);
    expect(new Set(withNulls.map((name) => name.split('.')[0])).size).toBeGreaterThanOrEqual(2);
  });
});

describe('loadDemoData', () => {
  it('returns false and changes nothing when the schema already exists', async () => {
    const before = await rowCounts(MASTER_SCHEMA);
    expect(await loadDemoData(database.url, MASTER_SCHEMA)).toBe(false);
    expect(await rowCounts(MASTER_SCHEMA)).toEqual(before);
  });

  it('is deterministic: a second schema loaded in the same database has identical content', async () => {
    const again = 'master_again';
    expect(await loadDemoData(database.url, again)).toBe(true);
    const tables = await baseTables(MASTER_SCHEMA);
    expect(await baseTables(again)).toEqual(tables);

    const digest = async (schema: string, table: string) => {
      const [row] = await database.prisma.$queryRawUnsafe<{ digest: string | null }[]>(
        `SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) AS digest
         FROM ${quoteIdentifier(schema)}.${quoteIdentifier(table)} AS t`,
      );
      return row?.digest;
    };
    for (const table of tables) {
      const original = await digest(MASTER_SCHEMA, table);
      expect(original, `digest of ${table}`).toMatch(/^[0-9a-f]{32}$/);
      expect(await digest(again, table), `content of ${table}`).toBe(original);
    }
  });
});
