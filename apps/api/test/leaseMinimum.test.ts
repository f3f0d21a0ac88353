import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import {
  acquireTableLockMutation,
  granted,
  refusal,
  renewTableLockMutation,
} from './support/lockOperations';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let standard: TestApi;
let lowered: TestApi;
let alice: TestClient;
let aliceOnLowered: TestClient;

beforeAll(async () => {
  database = await createTestDatabase();
  standard = await startTestApi(database);
  lowered = await startTestApi(database, { minLeaseSeconds: 5 });
  alice = await standard.loginAs('alice');
  aliceOnLowered = await lowered.loginAs('alice');
});
afterAll(async () => {
  await standard?.stop();
  await lowered?.stop();
  await database?.close();
});
beforeEach(() => resetLockRegistry(database.prisma));

/**
 * Sends a request for a grant and expects its lease to end `seconds` after the request's
 * database time, which lies between sending the request and reading the answer.
 */
async function expectLeaseOf(
  seconds: number,
  send: () => Promise<{ leaseExpiresAt?: unknown; token: string }>,
) {
  const sent = Date.now();
  const grant = await send();
  const answered = Date.now();
  const leaseEnd = new Date(String(grant.leaseExpiresAt)).getTime();
  expect(leaseEnd).toBeGreaterThanOrEqual(sent + seconds * 1000);
  expect(leaseEnd).toBeLessThanOrEqual(answered + seconds * 1000);
  return grant;
}

describe('LEASE_MIN_SECONDS', () => {
  it('is 15 unless set, and never below 1 s', () => {
    expect(loadConfig({}).LEASE_MIN_SECONDS).toBe(15);
    expect(loadConfig({ LEASE_MIN_SECONDS: '5' }).LEASE_MIN_SECONDS).toBe(5);
    expect(() => loadConfig({ LEASE_MIN_SECONDS: '0' })).toThrow(/LEASE_MIN_SECONDS/);
  });

  it('by default a lease under 15 s is BAD_USER_INPUT and takes nothing', async () => {
    for (const response of [
      await execute(alice, acquireTableLockMutation, { table: 'regions', lease: 14 }),
      await execute(alice, acquireTableLockMutation, { table: 'regions', lease: 5 }),
    ]) {
      expect(refusal(response)).toEqual({
        code: 'BAD_USER_INPUT',
        message: 'leaseSeconds must be a whole number from 15 to 3600.',
      });
    }
    await expectLeaseOf(15, async () =>
      granted(
        await execute(alice, acquireTableLockMutation, { table: 'regions', lease: 15 }),
        'acquireTableLock',
        'a 15 s lease',
      ),
    );
  });

  it('lowered for tests, leases from it are accepted and shorter ones still refused', async () => {
    const refused = await execute(aliceOnLowered, acquireTableLockMutation, {
      table: 'regions',
      lease: 4,
    });
    expect(refusal(refused)).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'leaseSeconds must be a whole number from 5 to 3600.',
    });
    const grant = await expectLeaseOf(5, async () =>
      granted(
        await execute(aliceOnLowered, acquireTableLockMutation, { table: 'regions', lease: 5 }),
        'acquireTableLock',
        'a 5 s lease',
      ),
    );
    await expectLeaseOf(5, async () =>
      granted(
        await execute(aliceOnLowered, renewTableLockMutation, {
          table: 'regions',
          token: grant.token,
          lease: 5,
        }),
        'renewTableLock',
        'a renewal by 5 s',
      ),
    );
  });
});
