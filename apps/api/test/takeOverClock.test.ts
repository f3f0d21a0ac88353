import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  governedTableQuery,
  setTablePolicyMutation,
  setTakeOverRuleMutation,
} from './support/governanceOperations';
import { acquireTableLockAs, refusal, takeOverTableLockMutation } from './support/lockOperations';
import { useSignedInApi } from './support/signedInApi';
import { execute, type TestClient } from './support/testApi';

// The take-over rule is decided once, on the database's clock: for the take-over itself and for
// `canTakeOver`, which offers it, so the offer is never refused. The app's clock (only its Date) is moved an hour away from the
// database's to make the two disagree; the button follows the database, as the take-over does.

const signedIn = useSignedInApi();
afterEach(() => vi.useRealTimers());

const IDLE_MINUTES = 10;
const HOUR_MS = 60 * 60 * 1000;

async function canTakeOver(client: TestClient, name: string) {
  const response = await execute(client, governedTableQuery, { name });
  return response.data?.table?.canTakeOver;
}

const takeOver = (client: TestClient, table: string) =>
  execute(client, takeOverTableLockMutation, { table, reason: 'holder is away' });

async function idleHolderRule() {
  const response = await execute(signedIn.admin, setTakeOverRuleMutation, {
    rule: 'idle_holder',
    idleMinutes: IDLE_MINUTES,
  });
  if (response.errors) throw new Error(JSON.stringify(response.errors));
}

describe('canTakeOver under the idle-holder rule', () => {
  it('is false for a holder active now by the database clock, though the app clock is an hour on', async () => {
    await idleHolderRule();
    await acquireTableLockAs(signedIn.alice, 'regions');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + HOUR_MS });

    expect(await canTakeOver(signedIn.bob, 'regions')).toBe(false);
    expect(refusal(await takeOver(signedIn.bob, 'regions')).code).toBe('FORBIDDEN');
  });

  it('is true for a holder idle past the limit by the database clock, though the app clock is an hour back', async () => {
    await idleHolderRule();
    await acquireTableLockAs(signedIn.alice, 'regions');
    await signedIn.database.prisma.$executeRaw`
      UPDATE tablelock.table_lock
      SET last_active_at = now() - make_interval(mins => ${IDLE_MINUTES + 1})
      WHERE table_name = 'regions'`;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - HOUR_MS });

    expect(await canTakeOver(signedIn.bob, 'regions')).toBe(true);
    expect((await takeOver(signedIn.bob, 'regions')).errors).toBeUndefined();
  });
});

describe("canTakeOver of one's own lock from another session", () => {
  it("is false once the table's policy leaves the holder out, as the take-over is refused", async () => {
    await acquireTableLockAs(signedIn.alice, 'regions');
    const policy = await execute(signedIn.admin, setTablePolicyMutation, {
      table: 'regions',
      policy: { editRoles: ['admin'] },
    });
    if (policy.errors) throw new Error(JSON.stringify(policy.errors));
    const aliceElsewhere = await signedIn.api.loginAs('alice');

    expect(await canTakeOver(aliceElsewhere, 'regions')).toBe(false);
    expect(refusal(await takeOver(aliceElsewhere, 'regions')).code).toBe('FORBIDDEN');
  });
});
