import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  API_DIR,
  COMPILED_CLI,
  createTestDatabase,
  resetLockRegistry,
  type TestDatabase,
} from '@tablelock/test-support';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import type { SecurityEventFilter, SecurityEventsQuery } from './generated/graphql';
import {
  createApiKeyMutation,
  createUserMutation,
  loginMutation,
  revokeApiKeyMutation,
  tableNamesQuery,
  updateUserMutation,
} from './support/identityOperations';
import { acquireTableLockMutation, logoutMutation } from './support/lockOperations';
import { readRegistry } from './support/registry';
import {
  execute,
  type GraphQLResponse,
  startTestApi,
  type TestApi,
  type TestClient,
} from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let admin: TestClient;
/** Every line the server logged, parsed. */
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => logLines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  api = await startTestApi(database, { logger });
  admin = await api.loginAs('admin');
});
afterAll(async () => {
  await api.stop();
  await database.close();
});
beforeEach(() => resetLockRegistry(database.prisma));

const securityEventsQuery = graphql(`
  query SecurityEvents($filter: SecurityEventFilter, $offset: Int, $limit: Int) {
    securityEvents(filter: $filter, offset: $offset, limit: $limit) {
      total
      events {
        id
        at
        action
        actor
        subject
        ip
        role
        previousRole
        loginFailure
      }
    }
  }
`);

type SecurityEventPage = SecurityEventsQuery['securityEvents'];
type SecurityEvent = SecurityEventPage['events'][number];

async function securityEvents(
  filter: SecurityEventFilter,
  page: { offset?: number; limit?: number } = {},
  client = admin,
): Promise<SecurityEventPage> {
  const response = await execute(client, securityEventsQuery, { filter, ...page });
  if (!response.data?.securityEvents) {
    throw new Error(`securityEvents failed: ${JSON.stringify(response.errors)}`);
  }
  return response.data.securityEvents;
}

/** What a test compares: the event without its id and time, oldest first. */
const described = (page: SecurityEventPage) =>
  page.events.map(({ id: _id, at: _at, ...event }) => event).reverse();

/** The whole security_event table as JSON text, to search for what must not be in it. */
async function everyStoredEvent(): Promise<string> {
  const [row] = await database.prisma.$queryRaw<{ events: string }[]>`
    SELECT json_agg(e)::text AS events FROM tablelock.security_event AS e`;
  return row?.events ?? '';
}

const errorCode = (response: GraphQLResponse<unknown>) => response.errors?.[0]?.extensions?.code;

async function anonymousLogin(username: string, password: string) {
  return execute(api.anonymous, loginMutation, { username, password });
}

async function expectNoErrors(response: Promise<GraphQLResponse<unknown>>) {
  const { errors } = await response;
  expect(errors).toBeUndefined();
}

const EVENT = {
  actor: 'admin',
  ip: '127.0.0.1',
  role: null,
  previousRole: null,
  loginFailure: null,
};

describe('identity actions are recorded', () => {
  it('user changes: who, what, to whom, from which address, with old and new role', async () => {
    await expectNoErrors(
      execute(admin, createUserMutation, {
        username: 'erin',
        password: 'erin-password-1',
        role: 'viewer',
      }),
    );
    await expectNoErrors(
      execute(admin, updateUserMutation, {
        username: 'erin',
        role: 'editor',
        password: 'erin-password-2',
      }),
    );
    await expectNoErrors(execute(admin, updateUserMutation, { username: 'erin', disabled: true }));
    await expectNoErrors(execute(admin, updateUserMutation, { username: 'erin', disabled: false }));
    // No change, no event: the same role again.
    await expectNoErrors(execute(admin, updateUserMutation, { username: 'erin', role: 'editor' }));

    expect(described(await securityEvents({ user: 'erin' }))).toEqual([
      { ...EVENT, action: 'user_created', subject: 'erin', role: 'viewer' },
      { ...EVENT, action: 'role_changed', subject: 'erin', role: 'editor', previousRole: 'viewer' },
      { ...EVENT, action: 'password_changed', subject: 'erin' },
      { ...EVENT, action: 'user_disabled', subject: 'erin' },
      { ...EVENT, action: 'user_enabled', subject: 'erin' },
    ]);
  });

  it('logins, failed logins and logouts', async () => {
    await expectNoErrors(
      execute(admin, createUserMutation, {
        username: 'fred',
        password: 'fred-password',
        role: 'editor',
      }),
    );
    expect(errorCode(await anonymousLogin('fred', 'wrong-password'))).toBe('UNAUTHENTICATED');
    const fred = await api.loginAs('fred', 'fred-password');
    await expectNoErrors(execute(fred, logoutMutation));
    expect(errorCode(await anonymousLogin('no-such-user', 'any-password'))).toBe('UNAUTHENTICATED');
    // Refused as bad input before anything is checked: nothing to record.
    expect(errorCode(await anonymousLogin('fred', 'p'.repeat(2000)))).toBe('BAD_USER_INPUT');

    const self = { ...EVENT, actor: 'fred', subject: 'fred' };
    expect(described(await securityEvents({ user: 'fred' }))).toEqual([
      { ...EVENT, action: 'user_created', subject: 'fred', role: 'editor' },
      { ...self, action: 'login_failed', actor: null, loginFailure: 'wrong_password' },
      { ...self, action: 'login' },
      { ...self, action: 'logout' },
    ]);
    expect(described(await securityEvents({ user: 'no-such-user' }))).toEqual([
      {
        ...EVENT,
        action: 'login_failed',
        actor: null,
        subject: 'no-such-user',
        loginFailure: 'unknown_user',
      },
    ]);
  });

  it('API keys: created and revoked, never with the secret', async () => {
    const created = await execute(admin, createApiKeyMutation, {
      name: 'audit-key',
      role: 'editor',
    });
    const secret = created.data?.createApiKey.secret ?? '';
    expect(secret).toMatch(/^tlk_/);
    await expectNoErrors(execute(admin, revokeApiKeyMutation, { name: 'audit-key' }));
    // Revoking a revoked key changes nothing: no second event.
    await expectNoErrors(execute(admin, revokeApiKeyMutation, { name: 'audit-key' }));

    expect(described(await securityEvents({ user: 'key:audit-key' }))).toEqual([
      { ...EVENT, action: 'api_key_created', subject: 'key:audit-key', role: 'editor' },
      { ...EVENT, action: 'api_key_revoked', subject: 'key:audit-key' },
    ]);
    const stored = await everyStoredEvent();
    const key = await database.prisma.apiKey.findUniqueOrThrow({ where: { name: 'audit-key' } });
    expect(stored).toContain('"subject":"key:audit-key"');
    expect(stored).not.toContain(secret.slice(4));
    expect(stored).not.toContain(key.keyHash);
  });

  it('never records a password or its hash', async () => {
    await expectNoErrors(
      execute(admin, createUserMutation, {
        username: 'gil',
        password: 'gil-secret-password',
        role: 'viewer',
      }),
    );
    await expectNoErrors(
      execute(admin, updateUserMutation, { username: 'gil', password: 'gil-other-password' }),
    );
    expect(errorCode(await anonymousLogin('gil', 'gil-guessed-password'))).toBe('UNAUTHENTICATED');
    const stored = await everyStoredEvent();
    const user = await database.prisma.user.findUniqueOrThrow({ where: { username: 'gil' } });
    expect(stored).toContain('"subject":"gil"');
    for (const secret of [
      'gil-secret-password',
      'gil-other-password',
      'gil-guessed-password',
      user.passwordHash,
    ]) {
      expect(stored).not.toContain(secret);
    }
  });

  it('each is logged: one info line per event, failed logins at warn', async () => {
    const from = logLines.length;
    await expectNoErrors(
      execute(admin, createUserMutation, {
        username: 'hana',
        password: 'hana-password',
        role: 'viewer',
      }),
    );
    expect(errorCode(await anonymousLogin('hana', 'wrong-password'))).toBe('UNAUTHENTICATED');
    const hana = await api.loginAs('hana', 'hana-password');
    await expectNoErrors(execute(hana, logoutMutation));

    const logged = logLines
      .slice(from)
      .filter((line) => line.msg === 'security event')
      .map(({ level, action, actor, subject, ip }) => ({ level, action, actor, subject, ip }));
    const INFO = 30;
    const WARN = 40;
    const ip = '127.0.0.1';
    expect(logged).toEqual([
      { level: INFO, action: 'user_created', actor: 'admin', subject: 'hana', ip },
      { level: WARN, action: 'login_failed', actor: null, subject: 'hana', ip },
      { level: INFO, action: 'login', actor: 'hana', subject: 'hana', ip },
      { level: INFO, action: 'logout', actor: 'hana', subject: 'hana', ip },
    ]);
  });
});

describe('an event is written in the same transaction as the change', () => {
  // A trigger that refuses the events listed in probe_refusal: when recording fails, the
  // change it records must not happen either.
  beforeAll(async () => {
    await database.prisma.$executeRawUnsafe(
      'CREATE TABLE public.probe_refusal (action text, subject text)',
    );
    await database.prisma.$executeRawUnsafe(`
      CREATE FUNCTION public.refuse_probed_event() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT FROM public.probe_refusal
                   WHERE action = NEW.action::text AND subject = NEW.subject) THEN
          RAISE EXCEPTION 'probe: % of % refused', NEW.action, NEW.subject;
        END IF;
        RETURN NEW;
      END $$`);
    await database.prisma.$executeRawUnsafe(`
      CREATE TRIGGER refuse_probed_event BEFORE INSERT ON tablelock.security_event
      FOR EACH ROW EXECUTE FUNCTION public.refuse_probed_event()`);
  });
  const refuse = (action: string, subject: string) =>
    database.prisma.$executeRaw`INSERT INTO public.probe_refusal VALUES (${action}, ${subject})`;

  it('a user whose creation cannot be recorded is not created', async () => {
    await refuse('user_created', 'ivy');
    const response = await execute(admin, createUserMutation, {
      username: 'ivy',
      password: 'ivy-password',
      role: 'viewer',
    });
    expect(errorCode(response)).toBe('INTERNAL_SERVER_ERROR');
    expect(await database.prisma.user.count({ where: { username: 'ivy' } })).toBe(0);
  });

  it('a role change that cannot be recorded is not made, nor the other changes with it', async () => {
    await expectNoErrors(
      execute(admin, createUserMutation, {
        username: 'jack',
        password: 'jack-password',
        role: 'viewer',
      }),
    );
    await refuse('role_changed', 'jack');
    const response = await execute(admin, updateUserMutation, {
      username: 'jack',
      role: 'admin',
      disabled: true,
    });
    expect(errorCode(response)).toBe('INTERNAL_SERVER_ERROR');
    const jack = await database.prisma.user.findUniqueOrThrow({ where: { username: 'jack' } });
    expect(jack).toMatchObject({ role: 'viewer', disabled: false });
  });

  it('a login that cannot be recorded starts no session', async () => {
    await expectNoErrors(
      execute(admin, createUserMutation, {
        username: 'kim',
        password: 'kim-password',
        role: 'viewer',
      }),
    );
    await refuse('login', 'kim');
    const response = await anonymousLogin('kim', 'kim-password');
    expect(errorCode(response)).toBe('INTERNAL_SERVER_ERROR');
    const sessions = await database.prisma.session.count({ where: { user: { username: 'kim' } } });
    expect(sessions).toBe(0);
  });

  it('a revocation that cannot be recorded leaves the key working', async () => {
    const key = await api.withApiKey('probe-key', 'viewer');
    await refuse('api_key_revoked', 'key:probe-key');
    const response = await execute(admin, revokeApiKeyMutation, { name: 'probe-key' });
    expect(errorCode(response)).toBe('INTERNAL_SERVER_ERROR');
    await expectNoErrors(execute(key, tableNamesQuery));
  });
});

describe('reading security events', () => {
  it('is for admins only', async () => {
    const read = (client: TestClient) => execute(client, securityEventsQuery, { filter: {} });
    for (const client of [await api.loginAs('alice'), await api.loginAs('carol')]) {
      expect(errorCode(await read(client)), client.name ?? '').toBe('FORBIDDEN');
    }
    expect(errorCode(await read(api.anonymous))).toBe('UNAUTHENTICATED');
    const adminKey = await api.withApiKey('reader-admin', 'admin');
    expect((await read(adminKey)).errors).toBeUndefined();
  });

  it('filters by user (actor or subject), actions and time, newest first, in pages', async () => {
    await expectNoErrors(
      execute(admin, createUserMutation, {
        username: 'lena',
        password: 'lena-password',
        role: 'viewer',
      }),
    );
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(errorCode(await anonymousLogin('lena', `wrong-${attempt}`))).toBe('UNAUTHENTICATED');
    }
    const lena = await api.loginAs('lena', 'lena-password');

    const all = await securityEvents({ user: 'lena' });
    expect(all.total).toBe(5);
    expect(all.events.map((event) => event.action)).toEqual([
      'login',
      'login_failed',
      'login_failed',
      'login_failed',
      'user_created',
    ]);
    const ids = all.events.map((event) => BigInt(event.id));
    expect([...ids].sort((a, b) => (a < b ? 1 : -1))).toEqual(ids);

    const failed = await securityEvents({ user: 'lena', actions: ['login_failed'] });
    expect(failed.total).toBe(3);
    expect(failed.events.every((event) => event.action === 'login_failed')).toBe(true);

    // As the actor: the admin created lena, so admin's events include it.
    const byAdmin = await securityEvents({ user: 'admin', actions: ['user_created'] });
    expect(byAdmin.events.map((event) => event.subject)).toContain('lena');

    const page = await securityEvents({ user: 'lena' }, { offset: 1, limit: 2 });
    expect(page).toEqual({ total: 5, events: all.events.slice(1, 3) });

    // `from` is inclusive, `to` exclusive.
    const created = all.events[4] as SecurityEvent;
    const loggedIn = all.events[0] as SecurityEvent;
    const window = await securityEvents({ user: 'lena', from: created.at, to: loggedIn.at });
    expect(window.events.map((event) => event.id)).toEqual(
      all.events
        .filter((event) => event.at >= created.at && event.at < loggedIn.at)
        .map((e) => e.id),
    );
    expect(window.events.map((event) => event.id)).toContain(created.id);
    expect(window.events.map((event) => event.id)).not.toContain(loggedIn.id);
    await expectNoErrors(execute(lena, logoutMutation));
  });

  it.each([
    ['a negative offset', { offset: -1 }],
    ['a zero limit', { limit: 0 }],
    ['a limit over 200', { limit: 201 }],
  ])('%s is BAD_USER_INPUT', async (_label, page: { offset?: number; limit?: number }) => {
    const response = await execute(admin, securityEventsQuery, { filter: {}, ...page });
    expect(errorCode(response)).toBe('BAD_USER_INPUT');
  });
});

describe('a principal that can no longer act loses its locks', () => {
  // Only what the tests compare: who released whose lock, and why.
  const recentLockEventsQuery = graphql(`
    query RecentLockEvents($filter: LockEventFilter) {
      lockEvents(filter: $filter, limit: 5) {
        events {
          action
          table
          actor
          editor
          reason
        }
      }
    }
  `);

  async function latestLockEvent(table: string) {
    const response = await execute(admin, recentLockEventsQuery, { filter: { table } });
    return response.data?.lockEvents.events[0];
  }

  it('revoking an API key releases its locks without expiry, recorded as the admin’s, with a reason', async () => {
    const batch = await api.withApiKey('batch-to-revoke', 'admin');
    const acquired = await execute(batch, acquireTableLockMutation, {
      table: 'products',
      lease: null,
    });
    expect(acquired.errors).toBeUndefined();
    expect(acquired.data?.acquireTableLock.leaseExpiresAt).toBeNull();
    const alice = await api.loginAs('alice');
    await expectNoErrors(execute(alice, acquireTableLockMutation, { table: 'customers' }));

    await expectNoErrors(execute(admin, revokeApiKeyMutation, { name: 'batch-to-revoke' }));

    const registry = await readRegistry(database.prisma);
    for (const table of ['products', 'categories', 'currencies', 'suppliers']) {
      expect(registry.get(table), table).toMatchObject({ status: 'normal', editor: null });
    }
    expect(registry.get('customers')).toMatchObject({ status: 'editing', editor: 'alice' });
    expect(await latestLockEvent('products')).toEqual({
      action: 'release',
      table: 'products',
      actor: 'admin',
      editor: 'key:batch-to-revoke',
      reason: 'API key revoked',
    });
  });

  it('disabling a user releases the user’s locks, recorded as the admin’s, with a reason', async () => {
    await expectNoErrors(
      execute(admin, createUserMutation, {
        username: 'mona',
        password: 'mona-password',
        role: 'editor',
      }),
    );
    const mona = await api.loginAs('mona', 'mona-password');
    await expectNoErrors(execute(mona, acquireTableLockMutation, { table: 'warehouses' }));
    const bob = await api.loginAs('bob');
    await expectNoErrors(execute(bob, acquireTableLockMutation, { table: 'price_lists' }));

    await expectNoErrors(execute(admin, updateUserMutation, { username: 'mona', disabled: true }));

    const registry = await readRegistry(database.prisma);
    expect(registry.get('warehouses')).toMatchObject({ status: 'normal', editor: null });
    expect(registry.get('regions')).toMatchObject({ status: 'normal', lockedBy: [] });
    expect(registry.get('price_lists')).toMatchObject({ status: 'editing', editor: 'bob' });
    expect(await latestLockEvent('warehouses')).toEqual({
      action: 'release',
      table: 'warehouses',
      actor: 'admin',
      editor: 'mona',
      reason: 'user disabled',
    });
  });

  it('the command line’s revoke-api-key does the same, recorded as the cli’s', async () => {
    const batch = await api.withApiKey('cli-batch', 'admin');
    await expectNoErrors(
      execute(batch, acquireTableLockMutation, { table: 'stock_levels', lease: null }),
    );

    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...COMPILED_CLI, 'revoke-api-key', 'cli-batch'],
      { cwd: API_DIR, env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' } },
    );
    expect(stdout).toContain('revoked API key cli-batch');

    expect((await readRegistry(database.prisma)).get('stock_levels')).toMatchObject({
      status: 'normal',
      editor: null,
    });
    expect(await latestLockEvent('stock_levels')).toEqual({
      action: 'release',
      table: 'stock_levels',
      actor: 'cli',
      editor: 'key:cli-batch',
      reason: 'API key revoked',
    });
    expect(described(await securityEvents({ user: 'key:cli-batch' })).at(-1)).toEqual({
      ...EVENT,
      action: 'api_key_revoked',
      actor: 'cli',
      subject: 'key:cli-batch',
      ip: null,
    });
  });
});
