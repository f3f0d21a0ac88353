import { inTransaction } from '@tablelock/db';
import { acquireTableLock, grantedOrConflict } from '@tablelock/lock';
import {
  createTestDatabase,
  MASTER_SCHEMA,
  resetLockRegistry,
  type TestDatabase,
} from '@tablelock/test-support';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTableChanges, revertChange, saveRows, syncWriteGuards } from '../src';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await syncWriteGuards(database.prisma, MASTER_SCHEMA, 'RECORD');
});
afterAll(() => database.close());

const IDS = [801, 802, 803, 804];
type Rows = Map<number, { name: string; sort_order: number }>;

/** An edit of one row: inserted if missing, else updated or deleted. */
const edit = fc.record({
  id: fc.constantFrom(...IDS),
  name: fc.constantFrom('a', 'b', 'c'),
  sortOrder: fc.nat({ max: 3 }),
  deleteIt: fc.boolean(),
});
/** A change: edits in one transaction, by the grid's save or by SQL without the lock. */
const change = fc.record({
  by: fc.constantFrom('grid', 'sql'),
  edits: fc.uniqueArray(edit, { minLength: 1, maxLength: 3, selector: (e) => e.id }),
});

async function tableNow(): Promise<Rows> {
  const rows = await database.prisma.$queryRaw<{ id: number; name: string; sort_order: number }[]>`
    SELECT id, name, sort_order FROM master.categories WHERE id = ANY(${IDS}) ORDER BY id`;
  return new Map(rows.map((row) => [row.id, { name: row.name, sort_order: row.sort_order }]));
}

type Edit = { id: number; name: string; sortOrder: number; deleteIt: boolean };

async function write(token: string, { by, edits }: { by: string; edits: Edit[] }) {
  const now = await tableNow();
  if (by === 'sql') {
    await inTransaction(database.prisma, async (tx) => {
      for (const { id, name, sortOrder, deleteIt } of edits) {
        if (!now.has(id)) {
          await tx.$executeRaw`INSERT INTO master.categories (id, name, sort_order)
                               VALUES (${id}, ${name}, ${sortOrder})`;
        } else if (deleteIt) {
          await tx.$executeRaw`DELETE FROM master.categories WHERE id = ${id}`;
        } else {
          await tx.$executeRaw`UPDATE master.categories SET name = ${name}, sort_order = ${sortOrder}
                               WHERE id = ${id}`;
        }
      }
    });
    return;
  }
  const versions = new Map(
    (
      await database.prisma.$queryRaw<{ id: number; version: string }[]>`
        SELECT id, xmin::text AS version FROM master.categories WHERE id = ANY(${IDS})`
    ).map((row) => [row.id, row.version]),
  );
  const version = (id: number) => versions.get(id) ?? '';
  const result = await saveRows(database.prisma, {
    schema: MASTER_SCHEMA,
    tableName: 'categories',
    holder: 'alice',
    token,
    changes: {
      inserts: edits
        .filter(({ id }) => !now.has(id))
        .map(({ id, name, sortOrder }) => ({
          values: { id: String(id), name, sort_order: String(sortOrder) },
        })),
      updates: edits
        .filter(({ id, deleteIt }) => now.has(id) && !deleteIt)
        .map(({ id, name, sortOrder }) => ({
          key: { id: String(id) },
          version: version(id),
          values: { name, sort_order: String(sortOrder) },
        })),
      deletes: edits
        .filter(({ id, deleteIt }) => now.has(id) && deleteIt)
        .map(({ id }) => ({ key: { id: String(id) }, version: version(id) })),
    },
  });
  expect(result.rowErrors).toEqual([]);
}

describe('reverting change k of random edits by the grid and by SQL', () => {
  it('gives back the table as it was before k, but for the rows touched later, which are reported', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        async (changes, pick) => {
          await resetLockRegistry(database.prisma);
          await database.prisma.$executeRaw`DELETE FROM master.categories WHERE id = ANY(${IDS})`;
          const token = grantedOrConflict(
            await acquireTableLock(database.prisma, {
              tableName: 'categories',
              editor: 'alice',
              leaseSeconds: 60,
            }),
          ).fencingToken;
          const recorded: { id: string; before: Rows; touched: Set<number> }[] = [];
          for (const next of changes) {
            const before = await tableNow();
            await write(token, next);
            const after = await tableNow();
            const touched = new Set(
              IDS.filter((id) => JSON.stringify(before.get(id)) !== JSON.stringify(after.get(id))),
            );
            if (touched.size === 0) continue;
            const [latest] = (await readTableChanges(database.prisma, 'categories', { first: 1 }))
              .changes;
            recorded.push({ id: latest?.id ?? '', before, touched });
          }
          fc.pre(recorded.length > 0);
          const k = pick % recorded.length;
          const target = recorded[k] as (typeof recorded)[number];
          const touchedLater = new Set(
            recorded.slice(k + 1).flatMap((later) => [...later.touched]),
          );
          const now = await tableNow();

          const result = await revertChange(database.prisma, {
            schema: MASTER_SCHEMA,
            tableName: 'categories',
            changeId: target.id,
            holder: 'alice',
            token,
            rows: null,
            dryRun: false,
          });
          expect(result.rowErrors).toEqual([]);
          const reverted = await tableNow();
          for (const id of IDS) {
            expect(reverted.get(id)).toEqual(
              touchedLater.has(id) ? now.get(id) : target.before.get(id),
            );
          }
          expect(result.conflicts.map((conflict) => Number(conflict.key.id)).sort()).toEqual(
            [...target.touched].filter((id) => touchedLater.has(id)).sort(),
          );
        },
      ),
      { numRuns: 10 },
    );
  });
});
