import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createApiKey, findApiKeyPrincipal } from '@tablelock/identity';
import { createTestDatabase, TEST_AUDIT, type TestDatabase } from '@tablelock/test-support';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentialCache } from '../src/auth/credentialCache';
import { startCredentialChangeFeed } from '../src/live/credentialChangeFeed';
import { startDatabaseNotifications } from '../src/live/databaseNotifications';
import type { CredentialChange } from '../src/ports/credentialChangeFeed';
import { tableNamesQuery } from './support/identityOperations';
import { isProbe, openLiveSocket, probeUntil } from './support/liveSocket';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

// The process remembers the keys and sessions it resolved (auth/credentialCache.ts) and forgets
// them when the database announces a change, whoever made it.

let database: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

const codeOf = async (client: TestClient) =>
  (await execute(client, tableNamesQuery)).errors?.[0]?.extensions?.code ?? 'OK';

const revokeInDatabase = (name: string) => database.prisma.$executeRaw`
  UPDATE tablelock.api_key SET revoked_at = now() WHERE name = ${name}`;

/**
 * Makes `change` and waits until the API has heard the database announce it: the announcement
 * arrives over the LISTEN connection, a moment after the change commits.
 */
async function announced(principal: CredentialChange, change: () => Promise<unknown>) {
  const heard = api.credentialChangeOf(principal);
  await change();
  await heard;
}

describe('remembered credentials', () => {
  it('a key is served from memory: a revocation the database does not announce goes unseen', async () => {
    const key = await api.withApiKey('remembered', 'viewer');
    expect(await codeOf(key)).toBe('OK');
    await database.prisma.$transaction([
      database.prisma
        .$executeRaw`ALTER TABLE tablelock.api_key DISABLE TRIGGER api_key_changed_announce`,
      database.prisma
        .$executeRaw`UPDATE tablelock.api_key SET revoked_at = now() WHERE name = 'remembered'`,
      database.prisma
        .$executeRaw`ALTER TABLE tablelock.api_key ENABLE TRIGGER api_key_changed_announce`,
    ]);
    expect(await codeOf(key)).toBe('OK');
  });

  it('a key revoked in the database by another process (the CLI) is refused on its next request', async () => {
    const key = await api.withApiKey('revoked-elsewhere', 'viewer');
    expect(await codeOf(key)).toBe('OK');
    const { id } = await database.prisma.apiKey.findUniqueOrThrow({
      where: { name: 'revoked-elsewhere' },
    });
    await announced({ kind: 'apiKey', id }, () => revokeInDatabase('revoked-elsewhere'));
    expect(await codeOf(key)).toBe('UNAUTHENTICATED');
  });

  it('a user disabled in the database loses its remembered session', async () => {
    const carol = await api.loginAs('carol');
    expect(await codeOf(carol)).toBe('OK');
    const { id } = await database.prisma.user.findUniqueOrThrow({ where: { username: 'carol' } });
    await announced(
      { kind: 'user', id },
      () =>
        database.prisma
          .$executeRaw`UPDATE tablelock."user" SET disabled = true WHERE username = 'carol'`,
    );
    try {
      expect(await codeOf(carol)).toBe('UNAUTHENTICATED');
    } finally {
      await database.prisma
        .$executeRaw`UPDATE tablelock."user" SET disabled = false WHERE username = 'carol'`;
    }
  });

  it('what was remembered before the LISTEN connection dropped is forgotten once it is back', async () => {
    const key = await api.withApiKey('revoked-unheard', 'viewer');
    const watcher = await api.withApiKey('reconnect-watcher', 'viewer');
    expect(await codeOf(key)).toBe('OK');
    const socket = openLiveSocket({
      url: api.url,
      connectionParams: { authorization: watcher.headers.authorization },
    });
    try {
      const subscription = socket.subscribe('subscription { lockChanged { id actor } }');
      await probeUntil(database.prisma, () => subscription.messages.some(isProbe));
      await database.prisma.$executeRaw`
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name LIKE 'tablelock %'`;
      // Announced while nobody listens: lost.
      await revokeInDatabase('revoked-unheard');
      // Live connections are told to reconnect (1012) once the process listens again.
      expect(await socket.closed).toMatchObject({ code: 1012 });
      expect(await codeOf(key)).toBe('UNAUTHENTICATED');
    } finally {
      await socket.dispose();
    }
  });

  // Requests that arrived together share one round trip on the LISTEN connection; one that
  // arrived after the round trip under way was sent cannot trust it and waits for the next.
  it('a catch-up shares the round trip under way only with requests that arrived before it was sent', async () => {
    const listenerName = 'catch-up sharing test';
    const notifications = await startDatabaseNotifications(
      database.url,
      pino({ level: 'silent' }),
      listenerName,
    );
    try {
      const [listener] = await database.prisma.$queryRaw<{ pid: number }[]>`
        SELECT pid FROM pg_stat_activity WHERE application_name = ${listenerName}`;
      if (!listener) throw new Error('the LISTEN connection is not in pg_stat_activity');
      const arrivedBefore = performance.now();
      // The listening backend paused: the round trip under way cannot be answered meanwhile.
      process.kill(listener.pid, 'SIGSTOP');
      let underWay: Promise<boolean>;
      let arrivedTogether: Promise<boolean>;
      let arrivedAfter: Promise<boolean>;
      try {
        underWay = notifications.catchUp(arrivedBefore);
        arrivedTogether = notifications.catchUp(arrivedBefore);
        await nextTurn();
        arrivedAfter = notifications.catchUp(performance.now());
      } finally {
        process.kill(listener.pid, 'SIGCONT');
      }
      let afterAnswered = false;
      void arrivedAfter.then(() => {
        afterAnswered = true;
      });
      expect(await underWay).toBe(true);
      expect(await arrivedTogether).toBe(true);
      // It needs a round trip of its own, sent once the one under way was answered.
      expect(afterAnswered).toBe(false);
      expect(await arrivedAfter).toBe(true);
    } finally {
      await notifications.close();
    }
  });

  // Another process's change reaches this one over its LISTEN connection, a moment after it
  // commits: under load, after the next request. The cache must not answer from memory then.
  it('a key revoked elsewhere is refused on the next lookup, even before the announcement arrives', async () => {
    const listenerName = 'credential cache test';
    const notifications = await startDatabaseNotifications(
      database.url,
      pino({ level: 'silent' }),
      listenerName,
    );
    try {
      const cache = createCredentialCache(await startCredentialChangeFeed(notifications));
      const { secret } = await createApiKey(
        database.prisma,
        { name: 'revoked-unheard-yet', role: 'viewer' },
        TEST_AUDIT,
      );
      const lookUp = () =>
        cache.principalOf('apiKey', secret, async () => {
          const principal = await findApiKeyPrincipal(database.prisma, secret);
          return principal && { principal };
        });
      expect(await lookUp()).toMatchObject({ name: 'key:revoked-unheard-yet' });

      const [listener] = await database.prisma.$queryRaw<{ pid: number }[]>`
        SELECT pid FROM pg_stat_activity WHERE application_name = ${listenerName}`;
      if (!listener) throw new Error('the LISTEN connection is not in pg_stat_activity');
      // The listening backend paused: it cannot pass the announcement on until it runs again.
      process.kill(listener.pid, 'SIGSTOP');
      let lookedUp: Promise<unknown>;
      try {
        await revokeInDatabase('revoked-unheard-yet');
        lookedUp = lookUp();
        // Long enough for an answer from memory; an answer that asks the database waits.
        await nextTurn();
        await nextTurn();
      } finally {
        process.kill(listener.pid, 'SIGCONT');
      }
      expect(await lookedUp).toBeNull();
    } finally {
      await notifications.close();
    }
  });
});
