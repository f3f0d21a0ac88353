import { createApiKey, createUser, updateUser } from '@tablelock/identity';
import { LOCK_CHANNEL } from '@tablelock/lock';
import {
  type ApiProcess,
  createTestDatabase,
  resetLockRegistry,
  startApiProcess,
  stopApiProcess,
  TEST_AUDIT,
  type TestDatabase,
  twoPorts,
} from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type LiveSubscription,
  lockEventPayload,
  openLiveSocket,
  PROBE_ACTOR,
  probeUntil,
  type SocketClose,
  type SocketOptions,
  type SubscriptionMessage,
} from './support/liveSocket';
import type { GraphQLResponse } from './support/testApi';

// Credentials change in one place (API process B, or straight in the database as the CLI does)
// while the subscriber is connected to another (API process A).
let database: TestDatabase;
const processes: ApiProcess[] = [];
let a: ApiProcess;
let b: ApiProcess;
let adminKey: string;
let moverKey: string;

/** Generous: the close takes a notification and one query, but the machine may be busy. */
const CLOSE_TIMEOUT_MS = 10_000;

beforeAll(async () => {
  database = await createTestDatabase();
  const [portA, portB] = await twoPorts();
  [a, b] = await Promise.all([
    startApiProcess('A', database.url, portA, processes),
    startApiProcess('B', database.url, portB, processes),
  ]);
  adminKey = await newKey('revoker', 'admin');
  moverKey = await newKey('mover', 'editor');
}, 60_000);
afterAll(async () => {
  await Promise.all(processes.map(stopApiProcess));
  await database?.close();
});
beforeEach(() => resetLockRegistry(database.prisma));

async function newKey(name: string, role: 'viewer' | 'editor' | 'admin'): Promise<string> {
  return (await createApiKey(database.prisma, { name, role }, TEST_AUDIT)).secret;
}

async function call<T = Record<string, unknown>>(
  api: ApiProcess,
  headers: Record<string, string>,
  query: string,
): Promise<{ response: Response; body: GraphQLResponse<T> }> {
  const response = await fetch(`${api.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  return { response, body: (await response.json()) as GraphQLResponse<T> };
}

const asKey = (secret: string) => ({ authorization: `Bearer ${secret}` });

async function newUserSession(api: ApiProcess, username: string): Promise<{ cookie: string }> {
  await createUser(
    database.prisma,
    { username, password: `${username}-password`, role: 'editor' },
    TEST_AUDIT,
  );
  const { response, body } = await call(
    api,
    {},
    `mutation { login(username: "${username}", password: "${username}-password") { name } }`,
  );
  const cookie = response.headers.getSetCookie()[0]?.split(';')[0];
  if (body.errors || !cookie) throw new Error(`login failed: ${JSON.stringify(body.errors)}`);
  return { cookie };
}

const LOCK_CHANGED = 'subscription { lockChanged { id action table actor } }';
const isProbe = (message: SubscriptionMessage) =>
  'next' in message && (message.next.lockChanged as { actor: string }).actor === PROBE_ACTOR;
const realEvents = (subscription: LiveSubscription) =>
  subscription.messages.filter((message) => 'next' in message && !isProbe(message));

/** A live `lockChanged` subscription on process A, ready when this resolves. */
async function subscribeOnA(options: Omit<SocketOptions, 'url'>) {
  const socket = openLiveSocket({ url: a.url, ...options });
  const subscription = socket.subscribe(LOCK_CHANGED);
  await probeUntil(database.prisma, () => subscription.messages.some(isProbe));
  return { socket, subscription };
}

function closedWithin(closed: Promise<SocketClose>): Promise<SocketClose> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`socket still open after ${CLOSE_TIMEOUT_MS} ms`)),
      CLOSE_TIMEOUT_MS,
    );
  });
  return Promise.race([closed, timeout]).finally(() => clearTimeout(timer));
}

/** Takes and releases `table` through process B: a change every subscriber should see. */
async function changeLockThroughB(table: string): Promise<void> {
  const acquired = await call<{ acquireTableLock: { token: string } }>(
    b,
    asKey(moverKey),
    `mutation { acquireTableLock(table: "${table}") { token } }`,
  );
  const token = acquired.body.data?.acquireTableLock.token;
  if (!token) throw new Error(`acquire failed: ${JSON.stringify(acquired.body.errors)}`);
  await call(
    b,
    asKey(moverKey),
    `mutation { releaseTableLock(table: "${table}", token: "${token}") { status } }`,
  );
}

describe('a subscriber on process A', () => {
  it('is disconnected (4403) when its API key is revoked through process B, without any event; other keys carry on', async () => {
    const doomedKey = await newKey('doomed', 'viewer');
    const doomed = await subscribeOnA({ connectionParams: asKey(doomedKey) });
    const bystander = await subscribeOnA({
      connectionParams: asKey(await newKey('bystander', 'viewer')),
    });
    try {
      const revoked = await call(
        b,
        asKey(adminKey),
        'mutation { revokeApiKey(name: "doomed") { name } }',
      );
      expect(revoked.body.errors).toBeUndefined();
      expect(await closedWithin(doomed.socket.closed)).toEqual({ code: 4403, reason: 'Forbidden' });

      await changeLockThroughB('warehouses');
      await bystander.subscription.waitFor(
        (m) => 'next' in m && (m.next.lockChanged as { table: string }).table === 'warehouses',
      );
      expect(realEvents(doomed.subscription)).toEqual([]);
    } finally {
      await doomed.socket.dispose();
      await bystander.socket.dispose();
    }
  });

  it('is disconnected at logout through process B and gets no change made after it', async () => {
    const session = await newUserSession(b, 'erin');
    const erin = await subscribeOnA({ headers: session });
    try {
      const loggedOut = await call<{ logout: boolean }>(b, session, 'mutation { logout }');
      expect(loggedOut.body.data?.logout).toBe(true);
      // Committed after the logout, so announced after it: it must not reach erin.
      await changeLockThroughB('regions');
      expect(await closedWithin(erin.socket.closed)).toEqual({ code: 4403, reason: 'Forbidden' });
      expect(realEvents(erin.subscription)).toEqual([]);
    } finally {
      await erin.socket.dispose();
    }
  });

  it('gets no change announced after the end of its session, even when both arrive at once', async () => {
    const frank = await subscribeOnA({ headers: await newUserSession(b, 'frank') });
    try {
      // One transaction, so that both announcements reach A at once: the change cannot be held
      // back by a check that has already finished.
      await database.prisma.$transaction(async (tx) => {
        await tx.$executeRaw`
          UPDATE tablelock.session SET revoked_at = now()
          WHERE user_id = (SELECT id FROM tablelock."user" WHERE username = 'frank')`;
        await tx.$executeRaw`SELECT pg_notify(${LOCK_CHANNEL}, ${lockEventPayload('mover', 'regions')})`;
      });
      expect(await closedWithin(frank.socket.closed)).toEqual({ code: 4403, reason: 'Forbidden' });
      expect(realEvents(frank.subscription)).toEqual([]);
    } finally {
      await frank.socket.dispose();
    }
  });

  it.each([
    ['disabled', { disabled: true }],
    ['given a new password', { password: 'a brand new password' }],
    ['given another role', { role: 'viewer' as const }],
  ])(
    'is disconnected when its user is %s by another process (as the CLI does)',
    async (label, change) => {
      const username = `user-${label.replaceAll(' ', '-')}`;
      const user = await subscribeOnA({ headers: await newUserSession(a, username) });
      try {
        await updateUser(database.prisma, { username, ...change }, TEST_AUDIT);
        expect(await closedWithin(user.socket.closed)).toEqual({ code: 4403, reason: 'Forbidden' });
      } finally {
        await user.socket.dispose();
      }
    },
  );
});
