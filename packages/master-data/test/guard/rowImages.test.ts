import { readFileSync } from 'node:fs';
import { syncTableRegistry } from '@tablelock/lock';
import { MASTER_SCHEMA } from '@tablelock/test-support';
import pg from 'pg';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useGuardTestbed } from './guardTestbed';

const bed = useGuardTestbed();

// Migration 20261230030000_history_images_from_arrays builds the row images the guard records
// with jsonb_object over two arrays instead of jsonb_build_object, for speed (docs/decisions/0022).
// The images must be the same jsonb as before, for every type, NULLs, odd column names, more
// columns than one jsonb_build_object takes (100 arguments), composite keys and tables without
// a primary key.
const BEFORE = readFileSync(new URL('../support/rowImagesBefore.sql', import.meta.url), 'utf8');
const WIDE = 'image_wide_items';
const KEYLESS = 'image_keyless_items';
const ROWS = 12;

/** A type and the value of row `g` (an integer expression) in a column of it. */
const TYPES: [type: string, value: string][] = [
  [
    'text',
    `CASE g % 4 WHEN 1 THEN 'quote " and \\ back' WHEN 2 THEN E'line\\nbreak ü 漢字' ELSE '' END`,
  ],
  ['numeric(12, 3)', 'g * 1.5'],
  ['date', `date '2026-01-01' + g`],
  ['timestamptz', `timestamptz '2026-01-01 10:00+09' + g * interval '1 hour'`],
  ['boolean', 'g % 2 = 0'],
  ['jsonb', `jsonb_build_object('a', g, 'b', ARRAY[1, 2], 'c', 'x"y')`],
  ['integer[]', 'ARRAY[g, NULL, 3]'],
  ['bytea', `decode('00ff' || lpad(to_hex(g), 2, '0'), 'hex')`],
  ['double precision', 'g / 3.0'],
  ['uuid', 'md5(g::text)::uuid'],
  ['interval', `g * interval '1 day 2 hours'`],
  ['"char"', `chr(64 + g)::"char"`],
];
const ODD_NAMES = [`it's`, 'back\\slash', 'Mixed "Case"', 'ユニコード'];
/** More columns than jsonb_build_object's 100 arguments hold as name/value pairs, twice over. */
const WIDE_COLUMNS = 120;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function columns(): { name: string; type: string; value: string }[] {
  return Array.from({ length: WIDE_COLUMNS }, (_, n) => {
    const [type, value] = TYPES[n % TYPES.length] ?? ['text', `'x'`];
    const name = ODD_NAMES[n] ?? `c${String(n).padStart(3, '0')}`;
    // Every fifth value NULL, a different row in each column.
    return { name, type, value: `CASE WHEN (g + ${n}) % 5 = 0 THEN NULL ELSE ${value} END` };
  });
}

let client: pg.Client;

beforeAll(async () => {
  const { prisma } = bed.database;
  const wide = columns();
  await prisma.$executeRawUnsafe(
    `CREATE TABLE ${MASTER_SCHEMA}.${WIDE} (id integer, "Part ""b""" text,
       ${wide.map((c) => `${quote(c.name)} ${c.type}`).join(', ')},
       PRIMARY KEY (id, "Part ""b"""))`,
  );
  await prisma.$executeRawUnsafe(
    `CREATE TABLE ${MASTER_SCHEMA}.${KEYLESS} (label text, amount numeric, day date)`,
  );
  await syncTableRegistry(prisma, MASTER_SCHEMA);
});

beforeEach(async () => {
  client = new pg.Client({ connectionString: bed.database.url });
  await client.connect();
  await client.query(BEFORE);
});
afterEach(() => client.end());

/** Rows of `table` whose key or whole image differs from the one built before, of all rows. */
async function imagesBeforeAndNow(table: string) {
  const relid = `'${MASTER_SCHEMA}.${table}'::regclass`;
  const { rows: shapes } = await client.query<{ whole: string; key: string; when: string }>(
    `SELECT 'now' AS when, * FROM tablelock.guard_row_json(${relid})
     UNION ALL SELECT 'before', * FROM pg_temp.guard_row_json_before(${relid})`,
  );
  const now = shapes.find((s) => s.when === 'now');
  const before = shapes.find((s) => s.when === 'before');
  const { rows } = await client.query<{ total: number; differing: number }>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE (${now?.whole}) IS DISTINCT FROM (${before?.whole})
                               OR (${now?.key}) IS DISTINCT FROM (${before?.key}))::int AS differing
     FROM ${MASTER_SCHEMA}.${table} AS r`,
  );
  return { ...rows[0], before };
}

/** Row changes of `table` recorded as inserts whose key and new values are the before images. */
async function recordedAsBefore(table: string, before: { whole: string; key: string }) {
  const { rows } = await client.query<{ recorded: number; matching: number }>(
    `SELECT (SELECT count(*)::int FROM tablelock.row_change
             WHERE table_name = $1 AND operation = 'insert') AS recorded,
            (SELECT count(*)::int FROM ${MASTER_SCHEMA}.${table} AS r
             JOIN tablelock.row_change AS c
               ON c.table_name = $1 AND c.operation = 'insert'
              AND c.row_key = ${before.key} AND c.new_values = ${before.whole}) AS matching`,
    [table],
  );
  return rows[0];
}

describe('the row images the guard records', () => {
  it(`are the images built before, for ${WIDE_COLUMNS} columns of many types, a composite key and odd names`, async () => {
    await bed.guard(WIDE, 'RECORD');
    const wide = columns();
    await client.query(
      `INSERT INTO ${MASTER_SCHEMA}.${WIDE}
       SELECT g, CASE WHEN g % 2 = 0 THEN 'even "b"' ELSE 'odd' END, ${wide.map((c) => c.value).join(', ')}
       FROM generate_series(1, ${ROWS}) AS g`,
    );
    const images = await imagesBeforeAndNow(WIDE);
    expect(images).toMatchObject({ total: ROWS, differing: 0 });
    expect(await recordedAsBefore(WIDE, images.before ?? { whole: '', key: '' })).toEqual({
      recorded: ROWS,
      matching: ROWS,
    });
  });

  it('key a row of a table without a primary key by all its columns, as before', async () => {
    await bed.guard(KEYLESS, 'RECORD');
    await client.query(
      `INSERT INTO ${MASTER_SCHEMA}.${KEYLESS}
       SELECT CASE WHEN g % 3 = 0 THEN NULL ELSE 'label ' || g END, g * 0.25,
              CASE WHEN g % 2 = 0 THEN NULL ELSE date '2026-03-01' + g END
       FROM generate_series(1, ${ROWS}) AS g`,
    );
    const images = await imagesBeforeAndNow(KEYLESS);
    expect(images).toMatchObject({ total: ROWS, differing: 0 });
    expect(images.before?.key).toBe(images.before?.whole);
    expect(await recordedAsBefore(KEYLESS, images.before ?? { whole: '', key: '' })).toEqual({
      recorded: ROWS,
      matching: ROWS,
    });
  });
});
