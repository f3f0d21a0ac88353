import { startApiProcess } from '@tablelock/test-support';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { findPgBouncer, NO_PGBOUNCER } from '../../../scripts/test-prerequisites.mjs';
import {
  PGBOUNCER_POOL_SIZE,
  type PgBouncer,
  pgBouncerVersion,
  startPgBouncer,
} from './support/pgBouncer';
import { describeTwoApiProcesses } from './support/twoApiProcesses';

// Large installations run the API behind PgBouncer; CI installs it (.ci/run), so a machine
// without it fails here rather than passing untested.
const program = findPgBouncer();
if (!program) throw new Error(NO_PGBOUNCER);

let pgBouncer: PgBouncer;
let databaseName: string;

beforeAll(async () => {
  pgBouncer = await startPgBouncer(program, inject('adminUrl'));
});
afterAll(() => pgBouncer?.stop());

describeTwoApiProcesses(
  `two API processes behind ${pgBouncerVersion(program)} in transaction mode (${PGBOUNCER_POOL_SIZE} server connections)`,
  (database, [portA, portB], started) => {
    databaseName = new URL(database.url).pathname.slice(1);
    // Debian's PgBouncer (1.18) does not carry a named statement over to the next server
    // connection it hands out: statements run unnamed.
    const settings = { DATABASE_DIRECT_URL: database.url, DATABASE_PREPARED_STATEMENTS: 'false' };
    const pooledUrl = pgBouncer.urlOf(database.url);
    return Promise.all([
      startApiProcess('A', pooledUrl, portA, started, settings),
      startApiProcess('B', pooledUrl, portB, started, settings),
    ]);
  },
);

it('the API processes reach Postgres through PgBouncer', async () => {
  const admin = new pg.Client({ connectionString: pgBouncer.consoleUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ database: string }>('SHOW CLIENTS');
    // At least one pooled connection each: their lock sweepers query every second.
    expect(rows.filter((row) => row.database === databaseName).length).toBeGreaterThanOrEqual(2);
  } finally {
    await admin.end();
  }
});
