import { acquireRowScope, grantedOrConflict, releaseRowScope } from '@tablelock/lock';
import { MASTER_SCHEMA } from '@tablelock/test-support';
import type pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyImport, dryRunImport, readImportRows, saveRows } from '../../src';
import { TABLE, TARGET, useGuardTestbed } from './guardTestbed';
import { refusal } from './otherWriter';

// Issue 41, outcome 7: the write guard knows row scopes. A row token given to use_lock lets its
// transaction write exactly the rows whose row-lock column (here the key, `id`) is one of the
// scope's values, before and after each change; anything else is TL007 under ENFORCE, and under
// RECORD an unlocked write naming the scopes it broke.
const bed = useGuardTestbed();

async function takeScope(editor: string, rows: string[]): Promise<string> {
  const answer = await acquireRowScope(bed.database.prisma, {
    tableName: TABLE,
    rows,
    editor,
    leaseSeconds: 600,
    masterSchema: MASTER_SCHEMA,
  });
  return grantedOrConflict(answer).fencingToken;
}

/** The other writer's transaction: use_lock with `token`, then `statement`, then COMMIT. */
async function writeUnder(token: string | null, statement: string): Promise<pg.Client> {
  const client = await bed.connect();
  await client.query('BEGIN');
  if (token !== null) await client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, token]);
  await client.query(statement);
  await client.query('COMMIT');
  return client;
}

async function rowsNow(): Promise<string[]> {
  const rows = await bed.database.prisma.$queryRawUnsafe<{ row: string }[]>(
    `SELECT id || ':' || name || ':' || coalesce(price::text, '') AS row FROM ${TARGET} ORDER BY id`,
  );
  return rows.map(({ row }) => row);
}

const BEFORE = ['1:bolt:1.50', '2:nut:0.20'];

const OUTSIDE: [string, string][] = [
  ['an update of a row outside', `UPDATE ${TARGET} SET price = 9 WHERE id = 2`],
  ['an update that moves a row out', `UPDATE ${TARGET} SET id = 5 WHERE id = 1`],
  ['an update of every row', `UPDATE ${TARGET} SET price = 9`],
  ['an insert with another value', `INSERT INTO ${TARGET} VALUES (4, 'washer', 0.05)`],
  ['a delete of another row', `DELETE FROM ${TARGET} WHERE id = 2`],
  ['a truncate', `TRUNCATE ${TARGET}`],
];

describe('a write under a row token, the guard at ENFORCE', () => {
  beforeEach(() => bed.guard(TABLE, 'ENFORCE'));

  it('writes rows inside the scope, recorded as a locked write of that scope', async () => {
    const token = await takeScope('key:nightly', ['1', '3']);
    await writeUnder(
      token,
      `UPDATE ${TARGET} SET price = 9 WHERE id = 1; INSERT INTO ${TARGET} VALUES (3, 'washer', 0.05)`,
    );
    expect(await rowsNow()).toEqual(['1:bolt:9', '2:nut:0.20', '3:washer:0.05']);
    const changeSets = await bed.database.prisma.changeSet.findMany({
      where: { tableName: TABLE },
    });
    expect(changeSets).toMatchObject([
      { kind: 'locked_write', token: BigInt(token), actor: 'key:nightly', rowScope: ['1', '3'] },
    ]);
  });

  it.each(OUTSIDE)('refuses %s (TL007), naming the value and its holder', async (_case, write) => {
    const token = await takeScope('key:nightly', ['1']);
    await takeScope('bob', ['2']);
    const refused = await refusal(() => writeUnder(token, write));
    expect(refused.code).toBe('TL007');
    expect(refused.message).toContain(`outside the row scope of token ${token}`);
    expect(await rowsNow()).toEqual(BEFORE);
    expect(await bed.database.prisma.changeSet.count()).toBe(0);
  });

  it('names who holds the value it wrote', async () => {
    const token = await takeScope('key:nightly', ['1']);
    await takeScope('bob', ['2']);
    const refused = await refusal(() =>
      writeUnder(token, `UPDATE ${TARGET} SET price = 9 WHERE id = 2`),
    );
    expect(refused.message).toContain('id 2');
    expect(refused.message).toContain('bob holds it');
  });

  it('refuses a write with no token to a row inside a scope (TL002), naming the holder', async () => {
    await takeScope('bob', ['2']);
    const refused = await refusal(() =>
      writeUnder(null, `UPDATE ${TARGET} SET price = 9 WHERE id = 2`),
    );
    expect(refused.code).toBe('TL002');
    expect(refused.message).toContain('bob');
    expect(await rowsNow()).toEqual(BEFORE);
  });

  it('refuses a released scope token at use_lock (TL001), and at the commit of a transaction it was released under (TL006)', async () => {
    const released = await takeScope('key:nightly', ['1']);
    await releaseRowScope(bed.database.prisma, {
      tableName: TABLE,
      editor: 'key:nightly',
      token: released,
    });
    const stale = await refusal(() =>
      writeUnder(released, `UPDATE ${TARGET} SET price = 9 WHERE id = 1`),
    );
    expect(stale.code).toBe('TL001');

    const token = await takeScope('key:nightly', ['1']);
    const open = await bed.connect();
    await open.query('BEGIN');
    await open.query('SELECT tablelock.use_lock($1, $2)', [TABLE, token]);
    await open.query(`UPDATE ${TARGET} SET price = 9 WHERE id = 1`);
    await releaseRowScope(bed.database.prisma, { tableName: TABLE, editor: 'key:nightly', token });
    const atCommit = await refusal(() => open.query('COMMIT'));
    expect(atCommit.code).toBe('TL006');
    expect(await rowsNow()).toEqual(BEFORE);
  });
});

describe('a write under a row token, the guard at RECORD', () => {
  beforeEach(() => bed.guard(TABLE, 'RECORD'));

  it('lets a write outside through as an unlocked write naming the scope it broke', async () => {
    const token = await takeScope('key:nightly', ['1']);
    const bobs = await takeScope('bob', ['2']);
    await writeUnder(token, `UPDATE ${TARGET} SET price = 9 WHERE id IN (1, 2)`);
    const [changeSet] = await bed.database.prisma.changeSet.findMany({
      where: { tableName: TABLE },
    });
    expect(changeSet).toMatchObject({
      kind: 'unlocked_write',
      token: BigInt(token),
      rowScope: ['1'],
      brokenScopes: [BigInt(bobs)],
    });
    const [event] = await bed.database.prisma.lockEvent.findMany({
      where: { tableName: TABLE, action: 'unlocked_write' },
    });
    expect(event?.details).toMatchObject({ brokenScopes: [bobs], rowScope: ['1'], token });
  });

  it('records a write with no token to a row inside a scope as breaking that scope', async () => {
    const bobs = await takeScope('bob', ['2']);
    await writeUnder(null, `DELETE FROM ${TARGET} WHERE id = 2`);
    const [changeSet] = await bed.database.prisma.changeSet.findMany({
      where: { tableName: TABLE },
    });
    expect(changeSet).toMatchObject({ kind: 'unlocked_write', brokenScopes: [BigInt(bobs)] });
  });

  it("still refuses tablelock's own save outside its scope: it is never recorded as broken", async () => {
    const token = await takeScope('alice', ['1']);
    const saved = await saveRows(bed.database.prisma, {
      schema: MASTER_SCHEMA,
      tableName: TABLE,
      holder: 'alice',
      token,
      changes: { inserts: [{ values: { id: '7', name: 'pin', price: '1' } }] },
    });
    expect(saved.saved).toBe(false);
    expect(saved.rowErrors).toMatchObject([
      {
        change: 'insert',
        index: 0,
        code: 'OUT_OF_SCOPE',
        column: 'id',
        details: { kind: 'OUT_OF_SCOPE', column: 'id', value: '7' },
      },
    ]);
    expect(saved.rowErrors[0]?.details.holder).toBeUndefined();
    expect(saved.rowErrors[0]?.message).toBe(
      'id 7 is outside your row scope (1): nobody holds it; take a scope that names it.',
    );
    expect(await rowsNow()).toEqual(BEFORE);
  });
});

describe('an import under a row token (issue 41, outcome 6)', () => {
  beforeEach(() => bed.guard(TABLE, 'RECORD'));

  const dryRun = (token: string, ...lines: string[]) =>
    dryRunImport(bed.database.prisma, {
      schema: MASTER_SCHEMA,
      tableName: TABLE,
      holder: 'alice',
      token,
      fileName: 'items.csv',
      format: 'csv',
      content: Buffer.from(['id,name,price', ...lines].join('\n')),
    });

  it('marks every file row outside the scope OUT_OF_SCOPE in the dry run; the import writes nothing', async () => {
    const token = await takeScope('alice', ['1', '3']);
    await takeScope('bob', ['2']);
    const report = await dryRun(token, '1,bolt,2', '2,nut,3', '3,washer,0.05', '4,pin,1');
    expect(report.counts).toMatchObject({ update: 1, create: 1, error: 2 });
    const { rows } = await readImportRows(bed.database.prisma, report.id, 'alice', {
      outcomes: ['error'],
      offset: 0,
      limit: 10,
    });
    expect(rows.map((row) => [row.line, row.errors])).toEqual([
      [
        3,
        [
          {
            column: 'id',
            code: 'OUT_OF_SCOPE',
            message: 'id 2 is outside your row scope (1, 3): bob holds it.',
            details: { kind: 'OUT_OF_SCOPE', column: 'id', value: '2', holder: 'bob' },
          },
        ],
      ],
      [
        5,
        [
          {
            column: 'id',
            code: 'OUT_OF_SCOPE',
            message:
              'id 4 is outside your row scope (1, 3): nobody holds it; take a scope that names it.',
            details: { kind: 'OUT_OF_SCOPE', column: 'id', value: '4' },
          },
        ],
      ],
    ]);
    await expect(
      applyImport(bed.database.prisma, {
        schema: MASTER_SCHEMA,
        id: report.id,
        holder: 'alice',
        token,
      }),
    ).rejects.toMatchObject({ code: 'IMPORT_HAS_ERRORS' });
    expect(await rowsNow()).toEqual(BEFORE);

    await applyImport(bed.database.prisma, {
      schema: MASTER_SCHEMA,
      id: report.id,
      holder: 'alice',
      token,
      skipRowsWithErrors: true,
    });
    expect(await rowsNow()).toEqual(['1:bolt:2', '2:nut:0.20', '3:washer:0.05']);
  });
});
