import {
  createTestDatabase,
  openProcessConnection,
  resetLockRegistry,
  type TestDatabase,
} from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinLockQueue } from '../src/line/lockQueue';

// A process gone (crashed, or not yet back on a promoted standby) leaves its places in line; a
// process that joins the line for the same editors takes them over. Several joins at once each
// meet a gone place, and the first to clear gone waiters clears them all: the others must still
// get in line, not be refused as if the editor waited there already.
let database: TestDatabase;
/** The live process's connection: its waiters count while it is open. */
let live: Awaited<ReturnType<typeof openProcessConnection>>;

const TABLE = 'warehouses';
const EDITORS = Array.from({ length: 6 }, (_, index) => `schedule:${index + 1}`);
const GONE = 'tablelock gone-process';
const LIVE = 'tablelock live-process';

beforeAll(async () => {
  database = await createTestDatabase();
  await resetLockRegistry(database.prisma);
  live = await openProcessConnection(database.url, LIVE);
});

afterAll(async () => {
  await live?.end();
  await database?.close();
});

const join = (editor: string, owner: string) =>
  joinLockQueue(database.prisma, {
    tables: [TABLE],
    editor,
    actor: editor,
    owner,
    joinKey: `${owner} ${editor}`,
    attempt: `${owner} ${editor}`,
  });

describe('joins at once over places a gone process left', () => {
  it('each gets a place in line', async () => {
    for (const editor of EDITORS) await join(editor, GONE);

    const joined = await Promise.allSettled(EDITORS.map((editor) => join(editor, LIVE)));

    expect(joined.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
    const waiters = await database.prisma.lockWaiter.findMany({
      where: { editor: { in: EDITORS } },
      select: { editor: true, owner: true },
      orderBy: { editor: 'asc' },
    });
    expect(waiters).toEqual(EDITORS.map((editor) => ({ editor, owner: LIVE })));
  });
});
