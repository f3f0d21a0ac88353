import { describe, expect, it } from 'vitest';
import {
  acquireTableLockAs,
  acquireTableLockMutation,
  releaseTableLockMutation,
} from './support/lockOperations';
import { useSignedInApi } from './support/signedInApi';
import { execute } from './support/testApi';

// A refused attempt is a result, recorded in the history in one place (the lock change itself),
// whether or not the request carried an idempotency key; only grants are kept for retries.

const signedIn = useSignedInApi();

async function deniedEvents(table: string) {
  return signedIn.database.prisma.$queryRaw<{ actor: string; reason: string }[]>`
    SELECT actor, reason FROM tablelock.lock_event
    WHERE table_name = ${table} AND action = 'denied' ORDER BY id`;
}

describe('a denied attempt', () => {
  it('with an idempotency key: recorded, not kept, so a retry once the way is free is granted', async () => {
    const { token } = await acquireTableLockAs(signedIn.alice, 'regions');

    const refused = await execute(signedIn.bob, acquireTableLockMutation, {
      table: 'regions',
      key: 'bob-regions',
    });
    expect(refused.errors?.[0]).toMatchObject({
      message: 'Refused: regions is being edited by alice.',
      extensions: { code: 'LOCK_CONFLICT', editBlock: 'beingEdited' },
    });
    expect(await deniedEvents('regions')).toEqual([
      { actor: 'bob', reason: 'regions is being edited by alice' },
    ]);

    const released = await execute(signedIn.alice, releaseTableLockMutation, {
      table: 'regions',
      token,
    });
    expect(released.errors).toBeUndefined();
    const retried = await execute(signedIn.bob, acquireTableLockMutation, {
      table: 'regions',
      key: 'bob-regions',
    });
    expect(retried.data?.acquireTableLock.token).toEqual(expect.any(String));
    // The key now holds the grant: the same request again gets the same answer.
    const again = await execute(signedIn.bob, acquireTableLockMutation, {
      table: 'regions',
      key: 'bob-regions',
    });
    expect(again.data).toEqual(retried.data);
  });

  it('of a release: recorded too, with what stood in the way', async () => {
    const refused = await execute(signedIn.alice, releaseTableLockMutation, {
      table: 'currencies',
      token: '1',
    });
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'LOCK_CONFLICT' });
    expect(await deniedEvents('currencies')).toEqual([
      { actor: 'alice', reason: 'currencies is not being edited' },
    ]);
  });
});
