import pg from 'pg';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { TABLE, TARGET, useGuardTestbed } from './guardTestbed';
import { refusal } from './otherWriter';

// Issue 40, item 8: the guard took a write's kind (`save`, `import`, `revert`) and the change it
// reverts from the settings `tablelock.change_kind` and `tablelock.reverts`, which any session
// may set. Another login holding a token labelled its write as tablelock's own save, or as a
// revert of any change, another table's too.
const bed = useGuardTestbed();

async function priceOf(id: number): Promise<string | null> {
  const [row] = await bed.database.prisma.$queryRawUnsafe<{ price: string | null }[]>(
    `SELECT price::text AS price FROM ${TARGET} WHERE id = $1`,
    id,
  );
  return row?.price ?? null;
}

function changeSets() {
  return bed.database.prisma.changeSet.findMany({
    where: { tableName: TABLE },
    orderBy: { id: 'asc' },
  });
}

/** A committed change set of another table, as the guard would have kept it. */
async function changeOfAnotherTable(): Promise<string> {
  const [row] = await bed.database.prisma.$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO tablelock.change_set (table_name, kind, db_role)
     VALUES ('another_table', 'save', current_user) RETURNING id::text AS id`,
  );
  if (!row) throw new Error('no change set');
  return row.id;
}

/** The other writer, in a transaction, showing alice's live token as a job under the CLI would. */
async function lockedWriter(token?: string): Promise<pg.Client> {
  const shown = token ?? (await bed.lock(TABLE, 'alice'));
  const client = await bed.connect();
  await client.query('BEGIN');
  await client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, shown]);
  return client;
}

/** A connection as tablelock's own database role, as the API's. */
async function asTablelock(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: bed.database.url });
  await client.connect();
  onTestFinished(() => client.end());
  return client;
}

function label(client: pg.Client, kind: string, reverts = '') {
  return client.query(
    "SELECT set_config('tablelock.change_kind', $1, true), set_config('tablelock.reverts', $2, true)",
    [kind, reverts],
  );
}

describe.each(['RECORD', 'ENFORCE'] as const)('a label another login sets (%s)', (guard) => {
  beforeEach(() => bed.guard(TABLE, guard));

  it.each(['save', 'import'])(
    "refuses a locked write labelled as tablelock's own %s",
    async (kind) => {
      const client = await lockedWriter();
      await label(client, kind);
      const refused = await refusal(() =>
        client.query(`UPDATE ${TARGET} SET price = 9 WHERE id = 1`),
      );
      expect(refused.code).toBe('TL005');
      expect(refused.message).toContain('tablelock.change_kind');
      await client.query('ROLLBACK');
      expect(await priceOf(1)).toBe('1.50');
      expect(await changeSets()).toEqual([]);
    },
  );

  it("refuses a locked write labelled as a revert of another table's change", async () => {
    const other = await changeOfAnotherTable();
    const client = await lockedWriter();
    await label(client, 'revert', other);
    const refused = await refusal(() => client.query(`DELETE FROM ${TARGET} WHERE id = 2`));
    expect(refused.code).toBe('TL005');
    await client.query('ROLLBACK');
    expect(await priceOf(2)).toBe('0.20');
    expect(await changeSets()).toEqual([]);
  });

  it('refuses a revert label alone, naming a change of the same table', async () => {
    const token = await bed.lock(TABLE, 'alice');
    const client = await lockedWriter(token);
    await client.query(`UPDATE ${TARGET} SET price = 9 WHERE id = 1`);
    await client.query('COMMIT');
    const [own] = await changeSets();
    const next = await lockedWriter(token);
    await next.query("SELECT set_config('tablelock.reverts', $1, true)", [own?.id.toString()]);
    const refused = await refusal(() =>
      next.query(`UPDATE ${TARGET} SET price = 1.50 WHERE id = 1`),
    );
    expect(refused.code).toBe('TL005');
    await next.query('ROLLBACK');
    expect(await changeSets()).toMatchObject([{ kind: 'locked_write', revertsChangeSetId: null }]);
  });

  it('refuses a label set after the transaction first wrote the table', async () => {
    const client = await lockedWriter();
    await client.query(`UPDATE ${TARGET} SET price = 9 WHERE id = 1`);
    await label(client, 'save');
    const refused = await refusal(() =>
      client.query(`UPDATE ${TARGET} SET price = 8 WHERE id = 2`),
    );
    expect(refused.code).toBe('TL005');
    await client.query('ROLLBACK');
    expect(await changeSets()).toEqual([]);
  });

  it('refuses a label set for the whole session', async () => {
    const client = await bed.connect();
    await client.query("SET tablelock.change_kind = 'save'");
    const token = await bed.lock(TABLE, 'alice');
    await client.query('BEGIN');
    await client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, token]);
    const refused = await refusal(() =>
      client.query(`UPDATE ${TARGET} SET price = 9 WHERE id = 1`),
    );
    expect(refused.code).toBe('TL005');
    await client.query('ROLLBACK');
    expect(await priceOf(1)).toBe('1.50');
  });

  it('keeps an unlabelled write under use_lock as a locked write', async () => {
    const client = await lockedWriter();
    await client.query(`UPDATE ${TARGET} SET price = 9 WHERE id = 1`);
    await client.query('COMMIT');
    expect(await changeSets()).toMatchObject([
      { kind: 'locked_write', actor: 'alice', revertsChangeSetId: null, rowsUpdated: 1 },
    ]);
  });
});

describe("tablelock's label", () => {
  beforeEach(() => bed.guard(TABLE, 'RECORD'));

  it('no other login may set it', async () => {
    const client = await lockedWriter();
    const byFunction = await refusal(() =>
      client.query("SELECT tablelock.label_write($1, 'save', NULL)", [TABLE]),
    );
    expect(byFunction.code).toBe('42501');
    await client.query('ROLLBACK');
    await client.query('BEGIN');
    const byRow = await refusal(() =>
      client.query("INSERT INTO tablelock.write_label (table_name, kind) VALUES ($1, 'save')", [
        TABLE,
      ]),
    );
    expect(byRow.code).toBe('42501');
    await client.query('ROLLBACK');
  });

  it("a revert label must name a change of the table it writes, even tablelock's own", async () => {
    const other = await changeOfAnotherTable();
    const token = await bed.lock(TABLE, 'alice');
    const client = await asTablelock();
    await client.query('BEGIN');
    await client.query(
      "SELECT tablelock.use_lock($1, $2), tablelock.label_write($1, 'revert', $3::bigint)",
      [TABLE, token, other],
    );
    const refused = await refusal(() => client.query(`DELETE FROM ${TARGET} WHERE id = 2`));
    expect(refused.code).toBe('TL005');
    await client.query('ROLLBACK');
    expect(await changeSets()).toEqual([]);
  });
});
