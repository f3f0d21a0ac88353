import { describe, expect, it } from 'vitest';
import {
  acquireTableLockMutation,
  releaseTableLockMutation,
  takeOverTableLockMutation,
} from './support/lockOperations';
import { useSignedInApi } from './support/signedInApi';
import { execute } from './support/testApi';

const signedIn = useSignedInApi();

/** How often bob takes and gives back the table while alice's take-overs race him. */
const BOB_ROUNDS = 20;

describe('take-over by an editor', () => {
  // Who may take over whom is decided on the rows the conditional write claims: an editor's
  // take-over racing another user's acquisition never lands on that user's lock.
  it("never takes over another user's lock, however the requests interleave", async () => {
    const table = 'currencies';
    let stop = false;
    let bobAcquisitions = 0;
    // Rounds, not a time window: on a busy machine a window holds fewer rounds, not other ones.
    const bobLoop = async () => {
      while (bobAcquisitions < BOB_ROUNDS) {
        const grant = (await execute(signedIn.bob, acquireTableLockMutation, { table, lease: 15 }))
          .data?.acquireTableLock;
        if (!grant) continue;
        bobAcquisitions++;
        await execute(signedIn.bob, releaseTableLockMutation, { table, token: grant.token });
      }
      stop = true;
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
    await Promise.all([bobLoop(), aliceLoop(), aliceLoop(), aliceLoop(), aliceLoop()]);

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
