import pg from 'pg';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { useGuardTestbed } from './guardTestbed';
import { refusal } from './otherWriter';

// Issue 45, outcome 1: a row change's change set was a foreign key, checked row by row (an
// import of 100,000 rows queued 100,000 checks). It is checked once per statement now; these
// are the writes the foreign key refused, each with rows that pass beside the one that does not,
// so that a check of a statement's first row, or of its first change set, would let them by.
const bed = useGuardTestbed();

async function asTablelock(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: bed.database.url });
  await client.connect();
  onTestFinished(() => client.end());
  return client;
}

async function changeSet(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO tablelock.change_set (table_name, kind, db_role)
     VALUES ('guarded_items', 'save', current_user) RETURNING id::text AS id`,
  );
  return rows[0]?.id ?? '';
}

function rowChange(client: pg.Client, changeSetIds: string[]) {
  return client.query(
    `INSERT INTO tablelock.row_change (change_set_id, table_name, row_key, operation, new_values)
     SELECT id, 'guarded_items', jsonb_build_object('id', n::text), 'insert', '{}'
     FROM unnest($1::bigint[]) WITH ORDINALITY AS c(id, n)`,
    [changeSetIds],
  );
}

async function counts(client: pg.Client) {
  const { rows } = await client.query<{ sets: number; changes: number }>(
    `SELECT (SELECT count(*)::int FROM tablelock.change_set) AS sets,
            (SELECT count(*)::int FROM tablelock.row_change) AS changes`,
  );
  return rows[0];
}

describe("a row change's change set", () => {
  let client: pg.Client;
  beforeEach(async () => {
    client = await asTablelock();
  });

  it('refuses row changes of which one names no change set, and writes none of them', async () => {
    const existing = await changeSet(client);
    const refused = await refusal(() => rowChange(client, [existing, existing, '999999999']));
    expect(refused).toMatchObject({ code: '23503' });
    expect(refused.message).toContain('999999999');
    expect(await counts(client)).toEqual({ sets: 1, changes: 0 });
  });

  it('refuses to move row changes to a change set that does not exist', async () => {
    const [first, second] = [await changeSet(client), await changeSet(client)];
    await rowChange(client, [first, second]);
    const refused = await refusal(() =>
      client.query(
        `UPDATE tablelock.row_change
         SET change_set_id = CASE WHEN change_set_id = $1 THEN $1 ELSE 999999999 END`,
        [first],
      ),
    );
    expect(refused.code).toBe('23503');
    const { rows } = await client.query(
      'SELECT change_set_id::text AS id FROM tablelock.row_change ORDER BY id',
    );
    expect(rows).toEqual([{ id: first }, { id: second }]);
  });

  it('refuses to delete change sets while row changes name one of them', async () => {
    const [unnamed, named] = [await changeSet(client), await changeSet(client)];
    await rowChange(client, [named]);
    const refused = await refusal(() =>
      client.query('DELETE FROM tablelock.change_set WHERE id = ANY($1::bigint[])', [
        [unnamed, named],
      ]),
    );
    expect(refused).toMatchObject({ code: '23503' });
    expect(refused.message).toContain(`change set ${named} `);
    expect(await counts(client)).toEqual({ sets: 2, changes: 1 });
    await client.query('DELETE FROM tablelock.row_change');
    await client.query('DELETE FROM tablelock.change_set WHERE id = ANY($1::bigint[])', [
      [unnamed, named],
    ]);
    expect(await counts(client)).toEqual({ sets: 0, changes: 0 });
  });

  it('refuses to truncate change_set alone while it has row changes, and truncates both together', async () => {
    await rowChange(client, [await changeSet(client)]);
    const refused = await refusal(() => client.query('TRUNCATE tablelock.change_set'));
    // The foreign key refused it as a feature (0A000), the check as a violation (23503).
    expect(['23503', '0A000']).toContain(refused.code);
    expect(await counts(client)).toEqual({ sets: 1, changes: 1 });
    await client.query('TRUNCATE tablelock.row_change, tablelock.change_set');
    expect(await counts(client)).toEqual({ sets: 0, changes: 0 });
  });
});
