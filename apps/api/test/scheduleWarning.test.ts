import { createApiKey } from '@tablelock/identity';
import {
  acquireRowScope,
  acquireTableLock,
  grantedOrConflict,
  releaseRowScope,
  releaseTableLock,
} from '@tablelock/lock';
import {
  type ApiProcess,
  createTestDatabase,
  MASTER_SCHEMA,
  poll,
  startApiProcess,
  stopApiProcess,
  TEST_AUDIT,
  type TestDatabase,
  twoPorts,
} from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProbe, type LiveSocket, openLiveSocket, probeUntil } from './support/liveSocket';
import { scheduleRename } from './support/scheduledRename';

// Issue 44: SCHEDULE_WARNING_LEAD_SECONDS before a scheduled change request's time, whoever
// holds its table (whole, or a row scope), or takes it in that time, hears once, on the lock
// channel the editor listens to, that they should release it by then; then the request applies
// once they have.
let database: TestDatabase;
const processes: ApiProcess[] = [];
let socket: LiveSocket;

/** Long enough for a holder to be told, release, and another to take the table, in the window. */
const LEAD_SECONDS = 4;

const LOCK_CHANGED = `subscription { lockChanged { action table actor editor token reason } }`;

beforeAll(async () => {
  database = await createTestDatabase();
  const ports = await twoPorts();
  const settings = { SCHEDULE_WARNING_LEAD_SECONDS: String(LEAD_SECONDS) };
  await Promise.all([
    startApiProcess('A', database.url, ports[0], processes, settings),
    startApiProcess('B', database.url, ports[1], processes, settings),
  ]);
  const { secret } = await createApiKey(
    database.prisma,
    { name: 'warning-watcher', role: 'admin' },
    TEST_AUDIT,
  );
  socket = openLiveSocket({
    url: processes[0]?.url ?? '',
    connectionParams: { authorization: `Bearer ${secret}` },
  });
}, 60_000);

afterAll(async () => {
  await socket?.dispose();
  await Promise.all(processes.map(stopApiProcess));
  await database?.close();
});

function untilDone(id: string) {
  return poll(`change request ${id} applied or failed`, 30_000, async () => {
    const request = await database.prisma.changeRequest.findUniqueOrThrow({
      where: { id: BigInt(id) },
    });
    return request.state === 'scheduled' ? undefined : request;
  });
}

/** Applied; the failure, if any, is in the comparison: it is what tells why. */
async function expectApplied(id: string) {
  const done = await untilDone(id);
  expect({ state: done.state, failure: done.failure }).toEqual({ state: 'applied', failure: null });
}

const warningsOf = (id: string) =>
  database.prisma.lockEvent.findMany({
    where: { action: 'request_due_soon', details: { path: ['changeRequestId'], equals: id } },
  });

describe('the warning before a scheduled change', () => {
  it('tells the holder of the whole table once, live, then the request applies once released', async () => {
    const subscription = socket.subscribe(LOCK_CHANGED);
    await probeUntil(database.prisma, () => subscription.messages.some(isProbe));
    const request = await scheduleRename(database.prisma, {
      table: 'warehouses',
      author: 'bob',
      id: 4,
      name: 'later',
      seconds: LEAD_SECONDS + 6,
    });
    const alice = grantedOrConflict(
      await acquireTableLock(database.prisma, {
        tableName: 'warehouses',
        editor: 'alice',
        leaseSeconds: 600,
      }),
    ).fencingToken;

    const warning = await subscription.waitFor(
      (message) =>
        'next' in message &&
        (message.next.lockChanged as { action?: string }).action === 'request_due_soon',
      30_000,
    );
    expect('next' in warning && warning.next.lockChanged).toEqual({
      action: 'request_due_soon',
      table: 'warehouses',
      actor: `schedule:${request.id}`,
      editor: 'alice',
      token: alice,
      reason: request.effectiveAt.toISOString(),
    });
    // Told before the request's time, and the request still waits.
    const [told] = await warningsOf(request.id);
    expect(told?.at.getTime()).toBeLessThan(request.effectiveAt.getTime());

    await releaseTableLock(database.prisma, {
      tableName: 'warehouses',
      editor: 'alice',
      token: alice,
    });
    await expectApplied(request.id);
    // Two schedulers looked; one told alice, once.
    expect(await warningsOf(request.id)).toHaveLength(1);
  }, 60_000);

  it('tells one who takes the table inside the warning window, after its earlier holder was told', async () => {
    const request = await scheduleRename(database.prisma, {
      table: 'warehouses',
      author: 'bob',
      id: 3,
      name: 'later',
      seconds: LEAD_SECONDS + 6,
    });
    const hold = async (editor: string) =>
      grantedOrConflict(
        await acquireTableLock(database.prisma, {
          tableName: 'warehouses',
          editor,
          leaseSeconds: 600,
        }),
      ).fencingToken;
    const release = (editor: string, token: string) =>
      releaseTableLock(database.prisma, { tableName: 'warehouses', editor, token });
    const bobs = await hold('bob');
    await poll('bob told', 30_000, async () =>
      (await warningsOf(request.id)).length > 0 ? true : undefined,
    );
    await release('bob', bobs);

    // Inside the window now: the warning went out before alice held anything.
    const alices = await hold('alice');
    const told = await poll('alice told', 30_000, async () => {
      const warnings = await warningsOf(request.id);
      return warnings.find((warning) => warning.editor === 'alice');
    });
    expect(told).toMatchObject({ token: BigInt(alices) });
    await release('alice', alices);
    await expectApplied(request.id);
    expect((await warningsOf(request.id)).map((warning) => warning.editor)).toEqual([
      'bob',
      'alice',
    ]);
  }, 60_000);

  it('tells the holder of a row scope, whatever its rows', async () => {
    const request = await scheduleRename(database.prisma, {
      table: 'products',
      author: 'bob',
      id: 7,
      name: 'later',
      seconds: LEAD_SECONDS + 6,
    });
    const scope = grantedOrConflict(
      await acquireRowScope(database.prisma, {
        tableName: 'products',
        rows: ['500'],
        editor: 'alice',
        leaseSeconds: 600,
        masterSchema: MASTER_SCHEMA,
      }),
    );
    const [told] = await poll('alice told', 30_000, async () => {
      const warnings = await warningsOf(request.id);
      return warnings.length > 0 ? warnings : undefined;
    });
    expect(told).toMatchObject({ editor: 'alice', token: BigInt(scope.fencingToken) });
    await releaseRowScope(database.prisma, {
      tableName: 'products',
      editor: 'alice',
      token: scope.fencingToken,
    });
    await expectApplied(request.id);
    expect(await warningsOf(request.id)).toHaveLength(1);
  }, 60_000);
});
