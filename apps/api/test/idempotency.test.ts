import { describe, expect, it } from 'vitest';
import {
  acquireTableLockAs,
  acquireTableLockMutation,
  lockEvents,
  refusal,
  saveRowsMutation,
} from './support/lockOperations';
import { rowCount } from './support/masterRows';
import { readRegistry } from './support/registry';
import { useSignedInApi } from './support/signedInApi';
import { execute } from './support/testApi';

const signedIn = useSignedInApi();

describe('idempotency keys', () => {
  it('a retried acquisition acts once; the same key for other input is refused; keys are per caller', async () => {
    const key = 'acquire-categories-once';
    const before = await lockEvents(signedIn.admin, { table: 'categories' }, 0, 1);
    const first = await acquireTableLockAs(signedIn.alice, 'categories', { key });
    const retry = await acquireTableLockAs(signedIn.alice, 'categories', { key });
    expect(retry).toEqual(first);
    const after = await lockEvents(signedIn.admin, { table: 'categories' }, 0, 10);
    expect(after.total - before.total).toBe(1);
    expect(after.events[0]).toMatchObject({
      action: 'acquire',
      actor: 'alice',
      token: first.token,
    });

    const reused = refusal(
      await execute(signedIn.alice, acquireTableLockMutation, { table: 'regions', key }),
    );
    expect(reused.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await readRegistry(signedIn.database.prisma)).get('regions')?.status).toBe('normal');

    const bobs = await acquireTableLockAs(signedIn.bob, 'regions', { key });
    expect(bobs.editor).toBe('bob');
    expect(bobs.token).not.toBe(first.token);
  });

  it('parallel requests with one key act once', async () => {
    const key = 'acquire-currencies-parallel';
    const before = await lockEvents(
      signedIn.admin,
      { table: 'currencies', actions: ['acquire'] },
      0,
      1,
    );
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        execute(signedIn.alice, acquireTableLockMutation, { table: 'currencies', key }),
      ),
    );
    const after = await lockEvents(
      signedIn.admin,
      { table: 'currencies', actions: ['acquire'] },
      0,
      1,
    );
    expect(after.total - before.total).toBe(1);
    const token = after.events[0]?.token;
    for (const response of responses) {
      // A duplicate that arrives while the first is still running may be turned away; it
      // never acts, and never answers with another acquisition.
      if (response.data?.acquireTableLock) {
        expect(response.data.acquireTableLock.token).toBe(token);
      } else {
        expect(refusal(response).code).toBe('LOCK_CONFLICT');
      }
    }
    expect((await acquireTableLockAs(signedIn.alice, 'currencies', { key })).token).toBe(token);
  });

  it('a retried save writes once and answers the same', async () => {
    const grant = await acquireTableLockAs(signedIn.alice, 'categories');
    const changes = { inserts: [{ values: { id: '7001', name: 'Saved once' } }] };
    const key = 'save-categories-once';
    const first = await execute(signedIn.alice, saveRowsMutation, {
      table: 'categories',
      token: grant.token,
      changes,
      key,
    });
    const retry = await execute(signedIn.alice, saveRowsMutation, {
      table: 'categories',
      token: grant.token,
      changes,
      key,
    });
    expect(first).toEqual({
      data: { saveRows: { saved: true, inserted: 1, updated: 0, deleted: 0 } },
    });
    expect(retry).toEqual(first);
    expect(await rowCount(signedIn.database.prisma, 'categories', '7001')).toBe(1);
    const saves = await lockEvents(
      signedIn.admin,
      { table: 'categories', actions: ['save'] },
      0,
      10,
    );
    expect(saves.events.filter((event) => event.token === grant.token)).toHaveLength(1);
    expect(saves.events[0]).toMatchObject({ actor: 'alice', rowsChanged: 1, token: grant.token });

    const other = { inserts: [{ values: { id: '7002', name: 'Another' } }] };
    const reused = refusal(
      await execute(signedIn.alice, saveRowsMutation, {
        table: 'categories',
        token: grant.token,
        changes: other,
        key,
      }),
    );
    expect(reused.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await rowCount(signedIn.database.prisma, 'categories', '7002')).toBe(0);
  });
});
