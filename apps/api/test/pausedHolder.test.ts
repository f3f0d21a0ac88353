import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestClient } from './support/testApi';

const HOLDER = new URL('./support/pausableHolder.mjs', import.meta.url).pathname;
/** The holder's lease: below production's 15 s minimum (LEASE_MIN_SECONDS), so it runs out soon. */
const HOLDER_LEASE_SECONDS = 5;

let database: TestDatabase;
let api: TestApi;
let holder: ChildProcessWithoutNullStreams | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database, { minLeaseSeconds: HOLDER_LEASE_SECONDS });
  await resetLockRegistry(database.prisma);
});
afterAll(async () => {
  // Only the process this test started, by its pid; SIGCONT first, so that SIGKILL is not queued.
  if (holder?.pid && holder.exitCode === null) {
    process.kill(holder.pid, 'SIGCONT');
    process.kill(holder.pid, 'SIGKILL');
  }
  await api.stop();
  await database.close();
});

type HolderLine = { step: string; token?: string; code?: string | null; saved?: boolean | null };

/** The holder's output lines, as they come. */
function linesOf(child: ChildProcessWithoutNullStreams) {
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return async (step: string): Promise<HolderLine> => {
    for (;;) {
      const { value, done } = await lines.next();
      if (done) throw new Error(`the holder ended before "${step}": ${stderr}`);
      const line = JSON.parse(value) as HolderLine;
      if (line.step === step) return line;
    }
  };
}

const SAVE = `mutation($t: String!, $k: String!, $c: RowChanges!) {
  saveRows(table: $t, token: $k, changes: $c) { saved } }`;
const ACQUIRE = 'mutation { acquireTableLock(table: "regions", leaseSeconds: 60) { token } }';

describe('a lock holder paused past its lease', () => {
  it('cannot save once resumed, while the new holder saves', async () => {
    const job = await api.withApiKey('paused-job', 'editor');
    holder = spawn(process.execPath, [
      HOLDER,
      api.url,
      job.headers.authorization as string,
      'regions',
      JSON.stringify({ id: '9101', code: 'LATE', name: 'Written after the lease' }),
      String(HOLDER_LEASE_SECONDS),
    ]);
    const next = linesOf(holder);
    const { token } = await next('acquired');
    expect(token).toMatch(/^\d+$/);
    expect(await next('renewed')).toMatchObject({ code: null });

    process.kill(holder.pid as number, 'SIGSTOP');
    // bob takes the table as soon as the paused holder's lease has run out (no sooner: until
    // then the acquisition is refused, naming the job).
    const bob: TestClient = await api.loginAs('bob');
    const deadline = Date.now() + 30_000;
    let bobToken: string | undefined;
    while (!bobToken && Date.now() < deadline) {
      const response = await bob.graphql<{ acquireTableLock: { token: string } }>(ACQUIRE);
      bobToken = response.data?.acquireTableLock.token;
      if (bobToken) break;
      expect(response.errors?.[0]?.extensions?.code).toBe('LOCK_CONFLICT');
      // Each refusal is recorded in the history: ask a few times a second, not in a spin.
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(bobToken).toBeDefined();
    const bobSave = await bob.graphql(SAVE, {
      t: 'regions',
      k: bobToken,
      c: { inserts: [{ values: { id: '9100', code: 'NEW', name: "The new holder's row" } }] },
    });
    expect(bobSave).toEqual({ data: { saveRows: { saved: true } } });

    process.kill(holder.pid as number, 'SIGCONT');
    holder.stdin.write('save\n');
    expect(await next('saved')).toMatchObject({ saved: null, code: 'LOCK_LOST' });

    const rows = await database.prisma.$queryRaw<{ id: number }[]>`
      SELECT id FROM master.regions WHERE id IN (9100, 9101) ORDER BY id`;
    expect(rows).toEqual([{ id: 9100 }]);
    const registry = await database.prisma.tableLock.findUnique({
      where: { tableName: 'regions' },
    });
    expect(registry).toMatchObject({
      status: 'editing',
      editor: 'bob',
      fencingToken: BigInt(bobToken as string),
    });
  }, 60_000);
});
