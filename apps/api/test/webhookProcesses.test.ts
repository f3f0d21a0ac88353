import { acquireTableLock, grantedOrConflict, releaseTableLock } from '@tablelock/lock';
import { createWebhook } from '@tablelock/outbox';
import {
  type ApiProcess,
  createTestDatabase,
  freePort,
  poll,
  startApiProcess,
  stopApiProcess,
  type TestDatabase,
} from '@tablelock/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ReceivedMessage,
  startWebhookReceiver,
  type WebhookReceiver,
  withoutRepeats,
} from './support/webhookReceiver';

const SETTINGS = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_FIRST_RETRY_MS: '50' };
const TABLES = ['categories', 'suppliers', 'currencies'];
const SHORT_TIMEOUT = { WEBHOOK_TIMEOUT_SECONDS: '2' };

let database: TestDatabase;
const processes: ApiProcess[] = [];
let receiver: WebhookReceiver;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await Promise.all(processes.splice(0).map(stopApiProcess));
  await receiver?.stop();
  await database.prisma.webhook.deleteMany();
});
afterAll(() => database.close());

async function registerReceiver(): Promise<void> {
  receiver = await startWebhookReceiver();
  const { secret } = await createWebhook(
    database.prisma,
    { url: receiver.url, eventTypes: [], tables: TABLES, withRows: false },
    'admin',
    ['127.0.0.1'],
  );
  receiver.secret = secret;
}

const start = async (name: string, settings: Record<string, string> = {}) =>
  startApiProcess(name, database.url, await freePort(), processes, { ...SETTINGS, ...settings });

/** `rounds` locks and releases of each table: 2 × rounds events each. */
async function lockAndRelease(rounds: number): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    for (const tableName of TABLES) {
      const grant = grantedOrConflict(
        await acquireTableLock(database.prisma, { tableName, editor: 'alice', leaseSeconds: 60 }),
      );
      await releaseTableLock(database.prisma, {
        tableName,
        editor: 'alice',
        token: grant.fencingToken,
      });
    }
  }
}

async function distinct(count: number): Promise<ReceivedMessage[]> {
  return poll(`${count} webhook messages`, 30_000, async () => {
    const unique = withoutRepeats(receiver.received);
    return unique.length >= count ? unique : undefined;
  });
}

/** Each table's events came in id order, and as many as expected. */
function expectInOrderPerTable(messages: readonly ReceivedMessage[], perTable: number): void {
  for (const table of TABLES) {
    const ids = messages
      .filter((message) => message.payload.data.table === table)
      .map((message) => Number(message.payload.data.id));
    expect(ids, table).toEqual([...ids].sort((a, b) => a - b));
    expect(ids, table).toHaveLength(perTable);
  }
}

describe('webhook deliveries from several API processes', () => {
  it('two processes never send one table’s messages at once, and each event arrives', async () => {
    await registerReceiver();
    // Each answer waits for the next tick, so that a second sender would overlap.
    receiver.beforeAnswer = () => new Promise((resolve) => setImmediate(resolve));
    await Promise.all([start('A'), start('B')]);
    await lockAndRelease(10);
    const messages = await distinct(TABLES.length * 20);
    expectInOrderPerTable(messages, 20);
    expect(receiver.overlaps).toBe(0);
    expect(receiver.forged).toBe(0);
  });

  it('loses nothing when the delivering process is killed mid-delivery', async () => {
    await registerReceiver();
    const firstArrived = new Promise<void>((arrived) => {
      receiver.beforeAnswer = () => {
        arrived();
        // Never answered: the sender is killed while it waits.
        return new Promise(() => {});
      };
    });
    // A killed process's claims go to the others when their lease runs out: twice the time
    // limit and 5 s (9 s here).
    const a = await start('A', SHORT_TIMEOUT);
    await lockAndRelease(2);
    await firstArrived;
    const killed = new Promise<void>((resolve) => a.child.once('exit', () => resolve()));
    a.child.kill('SIGKILL');
    await killed;
    receiver.beforeAnswer = async () => {};
    await start('B', SHORT_TIMEOUT);
    const messages = await distinct(TABLES.length * 4);
    expectInOrderPerTable(messages, 4);
    const first = receiver.received[0];
    expect(receiver.received.filter((message) => message.id === first?.id).length).toBe(2);
  });
});
