import { MASTER_SCHEMA, type TestDatabase } from '@tablelock/test-support';
import fc from 'fast-check';
import type pg from 'pg';
import { applyImport, dryRunImport, readRowHistory, readTableChanges, saveRows } from '../../src';

/** Where random writes are played: the test's database and a pg client of the other writer. */
export interface HistorySession {
  database: TestDatabase;
  client: pg.Client;
}

/** Keys written, and where key changes take them. */
const IDS = Array.from({ length: 8 }, (_, i) => i + 1);
const KEYS = Array.from({ length: 16 }, (_, i) => i + 1);

/**
 * Random grid saves, imports and SQL writes on `TABLE` (id integer PRIMARY KEY, name text NOT
 * NULL, price numeric, day date) — locked and not; inserts, updates of some columns, updates that
 * change nothing, deletes, key changes, truncates, statements that fail and take their
 * transaction with them — and what the history says of them.
 */
export function randomHistoryWrites(TABLE: string, session: HistorySession) {
  const TARGET = `${MASTER_SCHEMA}.${TABLE}`;
  const name = fc.constantFrom('bolt', 'nut', 'washer', 'gear');
  const price = fc.constantFrom('1.50', '0.20', '7', null);
  const day = fc.constantFrom('2026-01-05', '2026-12-31', null);
  const id = fc.constantFrom(...IDS);
  const range = fc.tuple(id, fc.nat({ max: 3 })).map(([low, width]) => [low, low + width] as const);

  const statement = fc.oneof(
    fc.record({
      kind: fc.constant('insert' as const),
      rows: fc.uniqueArray(fc.record({ id, name, price, day }), {
        selector: (r) => r.id,
        maxLength: 4,
      }),
    }),
    fc.record({
      kind: fc.constant('update' as const),
      range,
      name: fc.option(name),
      price: fc.option(price),
    }),
    fc.record({ kind: fc.constant('noChange' as const), range }),
    fc.record({ kind: fc.constant('delete' as const), range }),
    fc.record({ kind: fc.constant('keyChange' as const), id, by: fc.integer({ min: 1, max: 8 }) }),
    fc.record({ kind: fc.constant('truncate' as const) }),
  );

  const write = fc.oneof(
    fc.record({
      by: fc.constant('sql' as const),
      locked: fc.boolean(),
      statements: fc.array(statement, { minLength: 1, maxLength: 4 }),
    }),
    fc.record({
      by: fc.constant('grid' as const),
      edits: fc.uniqueArray(
        fc.record({ id, name: fc.option(name), price: fc.option(price), deleteIt: fc.boolean() }),
        { selector: (e) => e.id, minLength: 1, maxLength: 4 },
      ),
    }),
    fc.record({
      by: fc.constant('import' as const),
      rows: fc.uniqueArray(fc.record({ id, name, price, day }), {
        selector: (r) => r.id,
        minLength: 1,
        maxLength: 5,
      }),
    }),
  );

  type Write = typeof write extends fc.Arbitrary<infer W> ? W : never;
  type Statement = typeof statement extends fc.Arbitrary<infer S> ? S : never;

  function sqlOf(step: Statement): { text: string; values: unknown[] } {
    switch (step.kind) {
      case 'insert':
        return {
          text: `INSERT INTO ${TARGET} (id, name, price, day)
                 SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(id int, name text, price numeric, day date)
                 ON CONFLICT (id) DO NOTHING`,
          values: [JSON.stringify(step.rows)],
        };
      case 'update':
        return {
          text: `UPDATE ${TARGET} SET name = coalesce($3, name), price = CASE WHEN $4 THEN $5::numeric ELSE price END
                 WHERE id BETWEEN $1 AND $2`,
          values: [...step.range, step.name, step.price !== null, step.price],
        };
      case 'noChange':
        return {
          text: `UPDATE ${TARGET} SET name = name WHERE id BETWEEN $1 AND $2`,
          values: [...step.range],
        };
      case 'delete':
        return {
          text: `DELETE FROM ${TARGET} WHERE id BETWEEN $1 AND $2`,
          values: [...step.range],
        };
      case 'keyChange':
        return {
          text: `UPDATE ${TARGET} SET id = id + $2 WHERE id = $1`,
          values: [step.id, step.by],
        };
      case 'truncate':
        return { text: `TRUNCATE ${TARGET}`, values: [] };
    }
  }

  async function rowsNow(): Promise<Map<number, string>> {
    const { rows } = await session.client.query<{ id: number; version: string }>(
      `SELECT id, xmin::text AS version FROM ${TARGET}`,
    );
    return new Map(rows.map((row) => [row.id, row.version]));
  }

  async function play(step: Write, token: string): Promise<void> {
    const { prisma } = session.database;
    const caller = { schema: MASTER_SCHEMA, tableName: TABLE, holder: 'alice', token };
    if (step.by === 'sql') {
      await session.client.query('BEGIN');
      try {
        if (step.locked)
          await session.client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, token]);
        for (const one of step.statements) await session.client.query(sqlOf(one));
        await session.client.query('COMMIT');
      } catch {
        // A key change onto a taken key: the transaction is undone, in both captures alike.
        await session.client.query('ROLLBACK');
      }
      return;
    }
    if (step.by === 'import') {
      const lines = step.rows.map((r) => `${r.id},${r.name},${r.price ?? ''},${r.day ?? ''}`);
      const report = await dryRunImport(prisma, {
        ...caller,
        fileName: `${TABLE}.csv`,
        format: 'csv',
        content: Buffer.from(`id,name,price,day\r\n${lines.join('\r\n')}\r\n`),
      });
      await applyImport(prisma, { schema: MASTER_SCHEMA, id: report.id, holder: 'alice', token });
      return;
    }
    const now = await rowsNow();
    const values = (e: (typeof step.edits)[number]) =>
      Object.fromEntries(
        [
          ['name', e.name],
          ['price', e.price],
        ].filter(([, v]) => v !== null),
      );
    await saveRows(prisma, {
      ...caller,
      changes: {
        inserts: step.edits
          .filter((e) => !now.has(e.id))
          .map((e) => ({ values: { id: String(e.id), name: e.name ?? 'new', price: e.price } })),
        updates: step.edits
          .filter((e) => now.has(e.id) && !e.deleteIt && Object.keys(values(e)).length > 0)
          .map((e) => ({
            key: { id: String(e.id) },
            version: now.get(e.id) ?? '',
            values: values(e),
          })),
        deletes: step.edits
          .filter((e) => now.has(e.id) && e.deleteIt)
          .map((e) => ({ key: { id: String(e.id) }, version: now.get(e.id) ?? '' })),
      },
    });
  }

  /** What the history says, without what differs between two plays: ids, times and tokens. */
  async function historyRead() {
    const { prisma } = session.database;
    const changeSet = <
      C extends { id: string; at: Date; token: string | null; revertsChangeId: string | null },
    >(
      c: C,
    ) => {
      const { id: _id, at: _at, token, revertsChangeId: _reverts, ...rest } = c;
      return { ...rest, token: token !== null };
    };
    const rows: Record<string, unknown[]> = {};
    for (const key of KEYS) {
      const page = await readRowHistory(
        prisma,
        MASTER_SCHEMA,
        TABLE,
        { id: String(key) },
        { first: 500 },
      );
      if (page.rows.length === 0) continue;
      rows[key] = page.rows.map(({ id: _id, changeSet: c, ...change }) => ({
        ...change,
        changeSet: changeSet(c),
      }));
    }
    const changes = (await readTableChanges(prisma, TABLE, { first: 100 })).changes.map(changeSet);
    const { rows: events } = await session.client.query(
      `SELECT rows_changed, details - 'changeSetId' AS details FROM tablelock.lock_event
       WHERE action = 'unlocked_write' AND table_name = $1 ORDER BY id`,
      [TABLE],
    );
    return { rows, changes, events };
  }

  return { write, play, historyRead };
}
