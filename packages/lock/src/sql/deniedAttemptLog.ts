import {
  isPoolClient,
  noteConfirmedCommit,
  Prisma,
  type PrismaClient,
  type Queryable,
  queryPrepared,
} from '@tablelock/db';
import { EVENT_COLUMNS, eventRows, type LockEventInput } from './lockEvent';
import { LOCK_EVENT } from './registryTables';

/** Denials written by one INSERT at most: a bound on the size of one statement. */
const MAX_BATCH = 500;

interface Batch {
  events: LockEventInput[];
  written: Promise<void>;
  settle(error?: unknown): void;
}

/** Per pool client: whether a write is under way, and the denials waiting for the next. */
interface Log {
  writing: boolean;
  waiting: Batch[];
}

const logs = new WeakMap<PrismaClient, Log>();

/**
 * Records a denied attempt (not announced: nothing changed) and resolves once it is in the
 * history. On a pool client, denials that arrive while one is being written wait for it and
 * then go in together, one INSERT for all of them (group commit): when 200 clients race for a
 * table, the losers share a few statements instead of each paying a round trip of its own.
 * Inside a transaction, the denial is part of it and is written at once. On a pool client its
 * commit is also the answer's confirmed commit (see noteConfirmedCommit).
 */
export async function recordDeniedAttempt(db: Queryable, event: LockEventInput): Promise<void> {
  if (!isPoolClient(db)) return insertEvents(db, [event]);
  let log = logs.get(db);
  if (!log) {
    log = { writing: false, waiting: [] };
    logs.set(db, log);
  }
  let batch = log.waiting.at(-1);
  if (!batch || batch.events.length >= MAX_BATCH) {
    batch = newBatch();
    log.waiting.push(batch);
  }
  batch.events.push(event);
  if (!log.writing) {
    log.writing = true;
    // Those arriving in the same turn of the event loop join the first write.
    setImmediate(() => void writeWaiting(db, log));
  }
  await batch.written;
  // The INSERT ran alone, sent after the read the refusal was decided on, and wrote WAL: its
  // commit waited for the synchronous standbys (a cut wait rejects as OutcomeUnknownError) and
  // so covers every commit that read saw. The refusal's answer needs no barrier of its own
  // (under contention, one statement less for each of the losers).
  noteConfirmedCommit();
}

async function writeWaiting(db: PrismaClient, log: Log): Promise<void> {
  for (let batch = log.waiting.shift(); batch; batch = log.waiting.shift()) {
    try {
      await insertEvents(db, batch.events);
      batch.settle();
    } catch (error) {
      batch.settle(error);
    }
  }
  log.writing = false;
}

function newBatch(): Batch {
  let settle: Batch['settle'] = () => {};
  const written = new Promise<void>((resolve, reject) => {
    settle = (error) => (error === undefined ? resolve() : reject(error));
  });
  return { events: [], written, settle };
}

/** One prepared statement, sent to `pg` directly as the lock path's own, whatever the number of events. */
async function insertEvents(db: Queryable, events: LockEventInput[]): Promise<void> {
  await queryPrepared(
    db,
    Prisma.sql`INSERT INTO ${LOCK_EVENT} ${EVENT_COLUMNS} ${eventRows(events)}`,
  );
}
