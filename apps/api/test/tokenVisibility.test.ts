import { syncWriteGuards } from '@tablelock/master-data';
import { MASTER_SCHEMA } from '@tablelock/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { subscribeLockChanges } from './support/lockChanges';
import {
  acquireTableLockAs,
  lockEventsQuery,
  saveRowsMutation,
  takeOverTableLockMutation,
} from './support/lockOperations';
import { useSignedInApi } from './support/signedInApi';
import { execute, type TestClient } from './support/testApi';

// Issue 40, High 2: any viewer read every lock's live fencing token in the lock history, the
// live events and the row history, and a database login writes under a token with use_lock.
const signedIn = useSignedInApi();

// The row history is kept on guarded tables (startTestApi leaves them unguarded).
beforeAll(() => syncWriteGuards(signedIn.database.prisma, MASTER_SCHEMA, 'RECORD'));

const tableChangesQuery = graphql(`
  query TokenTableChanges($table: String!) {
    tableChanges(table: $table, first: 10) {
      changes {
        actor
        token
      }
    }
  }
`);

async function eventTokens(client: TestClient, table: string) {
  const answer = await execute(client, lockEventsQuery, { filter: { table }, limit: 10 });
  expect(answer.errors).toBeUndefined();
  return answer.data?.lockEvents.events.map(({ action, token }) => ({ action, token })) ?? [];
}

async function changeTokens(client: TestClient, table: string) {
  const answer = await execute(client, tableChangesQuery, { table });
  expect(answer.errors).toBeUndefined();
  return answer.data?.tableChanges.changes ?? [];
}

describe('fencing tokens', () => {
  it('are shown to the lock holder and to admins, not to other users', async () => {
    const carol = await signedIn.api.loginAs('carol');
    const lock = await acquireTableLockAs(signedIn.alice, 'warehouses');
    const [row] = await signedIn.database.prisma.$queryRaw<{ version: string }[]>`
      SELECT xmin::text AS version FROM master.warehouses WHERE id = 1`;
    const saved = await execute(signedIn.alice, saveRowsMutation, {
      table: 'warehouses',
      token: lock.token,
      changes: {
        updates: [{ key: { id: '1' }, version: row?.version ?? '', values: { name: 'Kept' } }],
      },
    });
    expect(saved.errors).toBeUndefined();

    for (const holderOrAdmin of [signedIn.alice, signedIn.admin]) {
      expect(await eventTokens(holderOrAdmin, 'warehouses')).toEqual([
        { action: 'save', token: lock.token },
        { action: 'acquire', token: lock.token },
      ]);
      expect(await changeTokens(holderOrAdmin, 'warehouses')).toEqual([
        { actor: 'alice', token: lock.token },
      ]);
    }
    for (const other of [carol, signedIn.bob]) {
      expect(await eventTokens(other, 'warehouses')).toEqual([
        { action: 'save', token: null },
        { action: 'acquire', token: null },
      ]);
      expect(await changeTokens(other, 'warehouses')).toEqual([{ actor: 'alice', token: null }]);
    }
  });

  it('of a take-over reach the holder it displaced, live, and no viewer', async () => {
    const viewer = await signedIn.api.withApiKey('token-watcher', 'viewer');
    const subscribe = (client: TestClient) =>
      subscribeLockChanges({
        url: signedIn.api.url,
        table: 'suppliers',
        ...(client.headers.authorization
          ? { connectionParams: { authorization: client.headers.authorization } }
          : { headers: client.headers }),
        prisma: signedIn.database.prisma,
      });
    const [byViewer, byAlice] = await Promise.all([subscribe(viewer), subscribe(signedIn.alice)]);
    try {
      await acquireTableLockAs(signedIn.alice, 'suppliers');
      const taken = await execute(signedIn.admin, takeOverTableLockMutation, {
        table: 'suppliers',
        reason: 'alice is away',
      });
      expect(taken.errors).toBeUndefined();
      const token = taken.data?.takeOverTableLock.token;
      const isTakeOver = (change: { action: string }) => change.action === 'take_over';
      expect(await byAlice.waitFor(isTakeOver)).toMatchObject({ token, previousEditor: 'alice' });
      expect(await byViewer.waitFor(isTakeOver)).toMatchObject({ token: null });
    } finally {
      await Promise.all([byViewer.close(), byAlice.close()]);
    }
  });
});
