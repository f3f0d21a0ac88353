import { describe, expect, it } from 'vitest';
import {
  acquireTableLockMutation,
  releaseTableLockMutation,
  takeOverTableLockMutation,
} from './support/lockOperations';
import { useSignedInApi } from './support/signedInApi';
import { execute } from './support/testApi';

const signedIn = useSignedInApi();

describe('take-over by an editor', () => {
  // Who may take over whom is decided on the rows the conditional write claims: an editor's
  // take-over racing another user's acquisition never lands on that user's lock.
  it("never takes over another user's lock, however the requests interleave", async () => {
    const table = 'currencies';
    let stop = false;
    let bobAcquisitions = 0;
    const bobLoop = async () => {
      while (!stop) {
        const grant = (await execute(signedIn.bob, acquireTableLockMutation, { table, lease: 15 }))
          .data?.acquireTableLock;
        if (!grant) continue;
        bobAcquisitions++;
        await execute(signedIn.bob, releaseTableLockMutation, { table, token: grant.token });
      }
    };
    const aliceLoop = async () => {
      while (!stop) {
        const taken = await execute(signedIn.alice, takeOverTableLockMutation, {
          table,
          reason: 'race',
          lease: 15,
        });
        const token = taken.data?.takeOverTableLock.token;
        // Alice's own lock (taken over from a free table's race, or by her) goes straight back.
        if (token) await execute(signedIn.alice, releaseTableLockMutation, { table, token });
      }
    };
    const loops = [bobLoop(), aliceLoop(), aliceLoop(), aliceLoop(), aliceLoop()];
    await new Promise((resolve) => setTimeout(resolve, 4000));
    stop = true;
    await Promise.all(loops);

    const stolen = await signedIn.database.prisma.lockEvent.count({
      where: {
        action: 'take_over',
        actor: 'alice',
        details: { path: ['previousEditor'], equals: 'bob' },
      },
    });
    expect(bobAcquisitions).toBeGreaterThan(10);
    expect(stolen).toBe(0);
  });
});
