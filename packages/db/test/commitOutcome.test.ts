import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOutcomeUnknown } from '../src';
import { outcomeCheckingClient } from '../src/access/commitOutcome';

let database: TestDatabase;
let admin: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query('CREATE TABLE outcome_probe (id int)');
});
afterAll(async () => {
  await admin.end();
  await database.close();
});

/**
 * Runs `statement` alone (outside a transaction) on a checking client whose backend is ended
 * while the statement waits (pg_sleep): its answer never comes. Returns the error it got.
 */
async function answerLost(statement: string): Promise<unknown> {
  const Client = outcomeCheckingClient(pg.Client);
  const client = new Client({ connectionString: database.url, application_name: 'outcome-probe' });
  client.on('error', () => {});
  await client.connect();
  const {
    rows: [backend],
  } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const running = client.query(statement).then(
    () => undefined,
    (error: unknown) => error,
  );
  for (;;) {
    const { rows } = await admin.query<{ waiting: boolean }>(
      `SELECT wait_event = 'PgSleep' AS waiting FROM pg_stat_activity WHERE pid = $1`,
      [backend?.pid],
    );
    if (rows[0]?.waiting) break;
  }
  await admin.query('SELECT pg_terminate_backend($1)', [backend?.pid]);
  return running;
}

describe('a lone statement whose answer is lost', () => {
  it('is an unknown outcome when it writes through a WITH', async () => {
    const error = await answerLost(
      'WITH written AS (INSERT INTO outcome_probe SELECT 1 FROM pg_sleep(30) RETURNING id) SELECT * FROM written',
    );
    expect(isOutcomeUnknown(error)).toBe(true);
  });

  it('is an outage, not an unknown outcome, when it only reads through a WITH', async () => {
    const error = await answerLost('WITH waited AS (SELECT pg_sleep(30)) SELECT * FROM waited');
    expect(error).toBeInstanceOf(Error);
    expect(isOutcomeUnknown(error)).toBe(false);
  });
});
