import { type PostgresServer, type ReplicaSet, startReplicaSet } from '@tablelock/test-support';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerDurably,
  awaitDurableCommits,
  createPrismaClient,
  isOutcomeUnknown,
  noteConfirmedCommit,
  type PrismaClient,
} from '../src';

let replicas: ReplicaSet;
let p0: PostgresServer;
let prisma: PrismaClient;
let admin: pg.Client;

beforeAll(async () => {
  replicas = await startReplicaSet();
  p0 = replicas.server('p0');
  prisma = createPrismaClient(p0.url(), { poolSize: 2 });
  admin = new pg.Client({ connectionString: p0.url() });
  await admin.connect();
  await admin.query('CREATE TABLE answer (id int)');
});

afterAll(async () => {
  await admin?.end();
  await prisma?.$disconnect();
  await replicas?.close();
});

/** Stops both standbys for `work`, then starts them again. */
async function withoutStandbys<T>(work: () => Promise<T>): Promise<T> {
  await Promise.all(['s1', 's2'].map((name) => replicas.server(name).stop()));
  try {
    return await work();
  } finally {
    await Promise.all(['s1', 's2'].map((name) => replicas.server(name).start()));
  }
}

const BARRIER = 'SELECT pg_logical_emit_message%';

describe('awaitDurableCommits', () => {
  it('waits for a standby; its wait cancelled, it is an unknown outcome', async () => {
    await withoutStandbys(async () => {
      const barrier = awaitDurableCommits(prisma).then(
        () => 'durable',
        (error: unknown) => error,
      );
      await replicas.cancelCommitWaitingForStandby(p0, BARRIER);
      expect(isOutcomeUnknown(await barrier)).toBe(true);
    });
  });

  it('returns once a standby has every commit the primary made before it', async () => {
    await admin.query('INSERT INTO answer VALUES (0)');
    const { rows: before } = await admin.query<{ lsn: string }>(
      'SELECT pg_current_wal_insert_lsn()::text AS lsn',
    );
    await awaitDurableCommits(prisma);
    const { rows } = await admin.query<{ flushed: boolean }>(
      `SELECT coalesce(bool_or(flush_lsn >= $1::pg_lsn), false) AS flushed
       FROM pg_stat_replication WHERE sync_state IN ('sync', 'quorum')`,
      [before[0]?.lsn],
    );
    expect(rows[0]?.flushed).toBe(true);
    await admin.query('DELETE FROM answer');
  });

  it('costs no wait where no synchronous standby is named', async () => {
    await admin.query(`ALTER SYSTEM SET synchronous_standby_names = ''`);
    await admin.query('SELECT pg_reload_conf()');
    try {
      await withoutStandbys(() => awaitDurableCommits(prisma));
    } finally {
      await admin.query('ALTER SYSTEM RESET synchronous_standby_names');
      await admin.query('SELECT pg_reload_conf()');
    }
  });

  // Why the barrier emits a message: the replay's old barrier, a transaction that only takes
  // an id, writes no WAL, and Postgres lets it commit without waiting for any standby.
  it('is needed: a transaction that only takes a transaction id never waits', async () => {
    await withoutStandbys(async () => {
      await prisma.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_current_xact_id()`;
      });
    });
  });
});

describe('answerDurably', () => {
  it('gives an answer read from a commit kept only on the primary once a standby has it', async () => {
    await withoutStandbys(async () => {
      const write = admin.query('INSERT INTO answer VALUES (1)');
      await replicas.cancelCommitWaitingForStandby(p0, 'INSERT INTO answer%');
      await write;
      const answer = answerDurably(
        prisma,
        () => prisma.$queryRaw<{ id: number }[]>`SELECT id FROM answer`,
      ).then(
        (rows) => rows,
        (error: unknown) => error,
      );
      await replicas.cancelCommitWaitingForStandby(p0, BARRIER);
      expect(isOutcomeUnknown(await answer)).toBe(true);
    });
    expect(await answerDurably(prisma, () => prisma.$queryRaw`SELECT id FROM answer`)).toEqual([
      { id: 1 },
    ]);
  });

  it('costs nothing more after a commit that was confirmed', async () => {
    await withoutStandbys(async () => {
      // With no standby, any barrier would wait: this answer returns as its work said.
      const answer = await answerDurably(prisma, async () => {
        noteConfirmedCommit();
        return 'done';
      });
      expect(answer).toBe('done');
    });
  });
});
