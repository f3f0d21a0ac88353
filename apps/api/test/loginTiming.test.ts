import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loginMutation } from './support/identityOperations';
import { postGraphql } from './support/postGraphql';
import { startTestApi, type TestApi } from './support/testApi';

// In the `timing` project: the two sides are compared by their durations, which a run starved
// by other files (under `nice`) would stretch at random.

let database: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  database = await createTestDatabase();
  // The test makes 17 deliberate failures: throttling must not get in their way.
  api = await startTestApi(database, {
    loginThrottle: { failuresPerUsernameAndIp: 1000, failuresPerIpPerDay: 1000, blockSeconds: 60 },
  });
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

it('timing does not tell an existing username from an unknown one', async () => {
  const timed = async (username: string) => {
    const start = performance.now();
    const { body } = await postGraphql(api.url, {}, loginMutation.toString(), {
      username,
      password: 'not-the-password',
    });
    expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    return performance.now() - start;
  };
  await timed('alice');
  const existing: number[] = [];
  const unknown: number[] = [];
  // Interleaved, so that load from other test files running alongside hits both alike.
  for (let attempt = 0; attempt < 8; attempt++) {
    existing.push(await timed('alice'));
    unknown.push(await timed(`nobody-${attempt}`));
  }
  // A ratio, not a time: absolute durations depend on the machine and on what else runs, but
  // both sides share those. Checking a password is a ~50 ms scrypt; skipping it for an unknown
  // user would make that side a few ms, a ratio far outside these bounds.
  const ratio = median(unknown) / median(existing);
  expect(ratio).toBeGreaterThan(0.5);
  expect(ratio).toBeLessThan(2);
});
