import { Writable } from 'node:stream';
import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  isProbe,
  type LiveSubscription,
  openConnection,
  openLiveSocket,
  probeUntil,
  type SubscriptionMessage,
} from './support/liveSocket';
import { startTestApi, type TestApi, type TestClient } from './support/testApi';

// The limits as the README states them.
const MAX_FRAME_BYTES = 64 * 1024;
const MAX_SUBSCRIPTIONS_PER_CONNECTION = 20;
const MAX_CONNECTIONS_PER_PRINCIPAL = 20;

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let watcher: TestClient;
const logged: { level: number; msg: string }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const logStream = new Writable({
    write(line, _encoding, done) {
      logged.push(JSON.parse(String(line)));
      done();
    },
  });
  api = await startTestApi(database, { logger: pino({ level: 'info' }, logStream) });
  alice = await api.loginAs('alice');
  watcher = await api.withApiKey('watcher', 'viewer');
});
afterAll(async () => {
  await api.stop();
  await database.close();
});
beforeEach(() => resetLockRegistry(database.prisma));

const LOCK_CHANGED = 'subscription { lockChanged { id action table actor } }';
const bearer = (client: TestClient) => ({ authorization: client.headers.authorization });

const isError = (message: SubscriptionMessage) => 'errors' in message;
const firstErrorOf = async (subscription: LiveSubscription) => {
  const message = await subscription.waitFor((m) => isError(m) || 'next' in m);
  if (!('errors' in message))
    throw new Error(`expected errors, got ${JSON.stringify(message).slice(0, 200)}`);
  return message.errors[0];
};

describe('WebSocket frames', () => {
  it('a frame over the cap is refused with close code 1009 before it is parsed or authenticated', async () => {
    const { outcome } = await openConnection({
      url: api.url,
      connectionParams: { padding: 'x'.repeat(1024 * 1024) },
    });
    // Without a cap the frame is read and parsed, and the anonymous connection refused (4403).
    expect(outcome).toMatchObject({ code: 1009 });
  });

  it('a frame just under the cap is read as usual', async () => {
    const connection = await openConnection({
      url: api.url,
      connectionParams: { ...bearer(watcher), padding: 'x'.repeat(MAX_FRAME_BYTES - 1024) },
    });
    expect(connection.outcome).toBe('acknowledged');
    await connection.close();
  });
});

describe('subscriptions per connection', () => {
  it(`the subscription after ${MAX_SUBSCRIPTIONS_PER_CONNECTION} on one socket is refused with TOO_MANY_SUBSCRIPTIONS; the others keep working`, async () => {
    const socket = openLiveSocket({ url: api.url, connectionParams: bearer(watcher) });
    try {
      const subscriptions = Array.from({ length: MAX_SUBSCRIPTIONS_PER_CONNECTION + 1 }, () =>
        socket.subscribe(LOCK_CHANGED),
      );
      const extra = subscriptions.at(-1) as LiveSubscription;
      await probeUntil(database.prisma, () =>
        subscriptions.every(
          (subscription) => subscription.messages.some(isProbe) || subscription === extra,
        ),
      );
      expect(await firstErrorOf(extra)).toMatchObject({
        message: expect.stringMatching(/subscriptions/i),
        extensions: { code: 'TOO_MANY_SUBSCRIPTIONS' },
      });
      expect(extra.messages.some(isProbe)).toBe(false);
    } finally {
      await socket.dispose();
    }
  });
});

describe('connections per caller', () => {
  it(`the connection after ${MAX_CONNECTIONS_PER_PRINCIPAL} of one API key is refused (1008); other callers still connect; a closed one makes room`, async () => {
    const crowd = await api.withApiKey('crowd', 'viewer');
    const open = await Promise.all(
      Array.from({ length: MAX_CONNECTIONS_PER_PRINCIPAL }, () =>
        openConnection({ url: api.url, connectionParams: bearer(crowd) }),
      ),
    );
    try {
      expect(open.map((connection) => connection.outcome)).toEqual(
        Array(MAX_CONNECTIONS_PER_PRINCIPAL).fill('acknowledged'),
      );
      const refused = await openConnection({ url: api.url, connectionParams: bearer(crowd) });
      expect(refused.outcome).toEqual({
        code: 1008,
        reason: expect.stringMatching(/too many connections/i),
      });

      const other = await openConnection({ url: api.url, connectionParams: bearer(watcher) });
      expect(other.outcome).toBe('acknowledged');
      await other.close();

      await open.pop()?.close();
      // The server sees the close a moment after the client does: try until it has.
      let again = await openConnection({ url: api.url, connectionParams: bearer(crowd) });
      while (again.outcome !== 'acknowledged') {
        expect(again.outcome).toMatchObject({ code: 1008 });
        again = await openConnection({ url: api.url, connectionParams: bearer(crowd) });
      }
      open.push(again);
    } finally {
      await Promise.all(open.map((connection) => connection.close()));
    }
  });
});

describe('operation limits over WebSocket (the same as over HTTP)', () => {
  it.each([
    [
      '3000 aliases (the token limit)',
      `subscription { lockChanged { ${Array.from({ length: 3000 }, (_, i) => `a${i}: reason`).join(' ')} } }`,
      /tokens/,
      'GRAPHQL_PARSE_FAILED',
    ],
    [
      '21 aliases (the alias limit)',
      `subscription { lockChanged { ${Array.from({ length: 21 }, (_, i) => `a${i}: reason`).join(' ')} } }`,
      /Aliases limit/,
      'GRAPHQL_VALIDATION_FAILED',
    ],
  ])('a subscription of %s is refused', async (_label, query, message, code) => {
    const socket = openLiveSocket({ url: api.url, connectionParams: bearer(watcher) });
    try {
      const subscription = socket.subscribe(query);
      const control = socket.subscribe(LOCK_CHANGED);
      await probeUntil(database.prisma, () => control.messages.some(isProbe));
      expect(await firstErrorOf(subscription)).toMatchObject({
        message: expect.stringMatching(message),
        extensions: { code },
      });
    } finally {
      await socket.dispose();
    }
  });
});

describe('credentials are checked per connection, not per event', () => {
  it(`one lock change reaches ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions on one socket without looking the key up again`, async () => {
    const socket = openLiveSocket({ url: api.url, connectionParams: bearer(watcher) });
    try {
      const subscriptions = Array.from({ length: MAX_SUBSCRIPTIONS_PER_CONNECTION }, () =>
        socket.subscribe(LOCK_CHANGED),
      );
      await probeUntil(database.prisma, () =>
        subscriptions.every((subscription) => subscription.messages.some(isProbe)),
      );
      // Every lookup of a key refreshes its last use when that is over a minute old.
      await database.prisma.$executeRaw`
        UPDATE tablelock.api_key SET last_used_at = '2000-01-01' WHERE name = 'watcher'`;

      const acquired = await alice.graphql<{ acquireTableLock: { token: string } }>(
        'mutation { acquireTableLock(table: "currencies") { token } }',
      );
      expect(acquired.errors).toBeUndefined();
      await Promise.all(
        subscriptions.map((subscription) =>
          subscription.waitFor(
            (m) =>
              'next' in m &&
              (m.next.lockChanged as { table: string; action: string }).table === 'currencies',
          ),
        ),
      );
      const [key] = await database.prisma.$queryRaw<{ last_used_at: Date }[]>`
        SELECT last_used_at FROM tablelock.api_key WHERE name = 'watcher'`;
      expect(key?.last_used_at).toEqual(new Date('2000-01-01'));
    } finally {
      await socket.dispose();
    }
  });

  it('a connection whose session expires by time is closed (4403)', async () => {
    const shortLived = await startTestApi(database, { sessionTtlSeconds: 3 });
    try {
      const carol = await shortLived.loginAs('carol');
      const socket = openLiveSocket({ url: shortLived.url, headers: carol.headers });
      const subscription = socket.subscribe(LOCK_CHANGED);
      await probeUntil(database.prisma, () => subscription.messages.some(isProbe));
      // No event needed: the connection ends by itself once the session is over.
      expect(await raceTimeout(socket.closed, 10_000)).toMatchObject({ code: 4403 });
      await socket.dispose();
    } finally {
      await shortLived.stop();
    }
  });

  it('a key revoked while the API had lost its LISTEN connection is still noticed after it reconnects', async () => {
    const lost = await api.withApiKey('lost-notification', 'viewer');
    const socket = openLiveSocket({ url: api.url, connectionParams: bearer(lost) });
    try {
      const subscription = socket.subscribe(LOCK_CHANGED);
      await probeUntil(database.prisma, () => subscription.messages.some(isProbe));
      await database.prisma.$executeRaw`
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name LIKE 'tablelock %'`;
      await database.prisma.$executeRaw`
        UPDATE tablelock.api_key SET revoked_at = now() WHERE name = 'lost-notification'`;
      // Told to reconnect (1012: changes, this revocation among them, were missed); the key
      // gets nothing more, and its reconnection is refused.
      expect(await raceTimeout(socket.closed, 10_000)).toMatchObject({ code: 1012 });
      const again = await openConnection({ url: api.url, connectionParams: bearer(lost) });
      expect(again.outcome).toMatchObject({ code: 4403 });
    } finally {
      await socket.dispose();
    }
  });

  // Whatever committed while the process was not listening reached no subscriber: every client
  // is told to reconnect, which is when it refetches what it shows.
  it('once the LISTEN connection is back, every live connection is closed with 1012, and new ones get events', async () => {
    const first = openLiveSocket({ url: api.url, connectionParams: bearer(watcher) });
    const second = openLiveSocket({ url: api.url, headers: alice.headers });
    try {
      for (const socket of [first, second]) {
        const subscription = socket.subscribe(LOCK_CHANGED);
        await probeUntil(database.prisma, () => subscription.messages.some(isProbe));
      }
      await database.prisma.$executeRaw`
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name LIKE 'tablelock %'`;
      expect(await raceTimeout(first.closed, 10_000)).toMatchObject({ code: 1012 });
      expect(await raceTimeout(second.closed, 10_000)).toMatchObject({ code: 1012 });
      const after = openLiveSocket({ url: api.url, connectionParams: bearer(watcher) });
      try {
        const subscription = after.subscribe(LOCK_CHANGED);
        await probeUntil(database.prisma, () => subscription.messages.some(isProbe));
      } finally {
        await after.dispose();
      }
    } finally {
      await first.dispose();
      await second.dispose();
    }
  });
});

describe('requests the server cannot serve', () => {
  it('a subscription sent over HTTP is a BAD_USER_INPUT answer, not a logged internal error', async () => {
    logged.length = 0;
    const response = await alice.graphql(LOCK_CHANGED);
    expect(response.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/WebSocket/),
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(logged.filter((entry) => entry.level >= 50)).toEqual([]);
  });

  it('an upgrade with `Origin: null` and a valid session cookie is refused as forbidden (4403)', async () => {
    const { outcome } = await openConnection({
      url: api.url,
      headers: { ...alice.headers, origin: 'null' },
    });
    expect(outcome).toMatchObject({ code: 4403 });
  });

  it('the same cookie from the same origin is accepted (the refusal above is about the origin)', async () => {
    const connection = await openConnection({
      url: api.url,
      headers: { ...alice.headers, origin: api.url },
    });
    expect(connection.outcome).toBe('acknowledged');
    await connection.close();
  });
});

/** The promise's value, or a rejection after `timeoutMs`: what the test waits for never came. */
function raceTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`nothing within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
