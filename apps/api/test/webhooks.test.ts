import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { syncWriteGuards } from '@tablelock/master-data';
import {
  createTestDatabase,
  MASTER_SCHEMA,
  poll,
  type TestDatabase,
} from '@tablelock/test-support';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { acquireTableLockAs, releaseTableLockAs, saveRowsMutation } from './support/lockOperations';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';
import {
  type ReceivedMessage,
  startWebhookReceiver,
  type WebhookReceiver,
  withoutRepeats,
} from './support/webhookReceiver';

/**
 * Short clocks: retries from 50 ms. No look at the outbox on a timer: every delivery here
 * starts from a commit's announcement or a retry's time. An endpoint is disabled after failing
 * for an hour here, so that no test's receiver, stopped while the machine is busy, outlasts it;
 * the give-up has its own API (GIVE_UP_SECONDS).
 */
const WEBHOOK_SETTINGS = {
  allowedHosts: ['127.0.0.1'],
  firstRetryMs: 50,
  giveUpSeconds: 3600,
  timeoutMs: 2000,
  rowBatch: 2,
  longestWaitMs: 3_600_000,
};
const GIVE_UP_SECONDS = 3;

let database: TestDatabase;
let api: TestApi;
let admin: TestClient;
let alice: TestClient;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  await syncWriteGuards(database.prisma, MASTER_SCHEMA, 'RECORD');
  api = await startTestApi(database, { webhooks: WEBHOOK_SETTINGS });
  [admin, alice] = await Promise.all([api.loginAs('admin'), api.loginAs('alice')]);
});
afterEach(async () => {
  const hooks = await execute(admin, webhooksQuery);
  for (const hook of hooks.data?.webhooks ?? []) {
    await execute(admin, deleteWebhookMutation, { id: hook.id });
  }
  await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

const createWebhookMutation = graphql(`
  mutation CreateWebhook($webhook: WebhookInput!) {
    createWebhook(webhook: $webhook) {
      webhook {
        id
        url
      }
      secret
    }
  }
`);

const webhooksQuery = graphql(`
  query Webhooks {
    webhooks {
      id
      url
      eventTypes
      tables
      withRows
      disabledAt
      disabledReason
      deliveries(first: 200) {
        id
        messageId
        delivered
        responseStatus
        error
        attempt
      }
    }
  }
`);

const resendMutation = graphql(`
  mutation ResendWebhookDelivery($id: ID!) {
    resendWebhookDelivery(id: $id) {
      id
      messageId
      delivered
      responseStatus
    }
  }
`);

const updateWebhookMutation = graphql(`
  mutation UpdateWebhook($id: ID!, $change: WebhookChange!) {
    updateWebhook(id: $id, change: $change) {
      id
    }
  }
`);

const deleteWebhookMutation = graphql(`
  mutation DeleteWebhook($id: ID!) {
    deleteWebhook(id: $id)
  }
`);

type WebhookInput = { url: string; eventTypes?: string[]; tables?: string[]; withRows?: boolean };

/** A receiver and an endpoint registered for it (by `by`, an admin). */
async function registered(input: Omit<WebhookInput, 'url'> = {}, by = admin) {
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const response = await execute(by, createWebhookMutation, {
    webhook: { url: receiver.url, ...input },
  });
  const created = response.data?.createWebhook;
  if (!created) throw new Error(JSON.stringify(response.errors));
  receiver.secret = created.secret;
  return { receiver, id: created.webhook.id };
}

async function lockAndRelease(table: string, times = 1, as = alice) {
  for (let i = 0; i < times; i++) {
    const grant = await acquireTableLockAs(as, table);
    await releaseTableLockAs(as, table, grant.token);
  }
}

/** Waits for `count` distinct messages; the distinct ones in the order they first came. */
async function distinct(receiver: WebhookReceiver, count: number): Promise<ReceivedMessage[]> {
  return poll(`${count} webhook messages`, 20_000, async () => {
    const unique = withoutRepeats(receiver.received);
    return unique.length >= count ? unique : undefined;
  });
}

const line = (message: ReceivedMessage) => `${message.payload.data.table} ${message.payload.type}`;

/** Per table, the event ids in the order they came: each table's list must be ascending. */
function idsPerTable(messages: readonly ReceivedMessage[]): Map<string, number[]> {
  const perTable = new Map<string, number[]>();
  for (const message of messages) {
    const ids = perTable.get(message.payload.data.table) ?? [];
    ids.push(Number(message.payload.data.id));
    perTable.set(message.payload.data.table, ids);
  }
  return perTable;
}

describe('webhooks', () => {
  it('delivers each event once after de-duplication, signed, in commit order per table', async () => {
    const { receiver } = await registered();
    await Promise.all([lockAndRelease('categories', 3), lockAndRelease('suppliers', 3)]);
    const messages = await distinct(receiver, 12);
    expect(messages).toHaveLength(12);
    expect(receiver.forged).toBe(0);
    for (const [table, ids] of idsPerTable(messages)) {
      expect(ids, table).toEqual([...ids].sort((a, b) => a - b));
      expect(ids, table).toHaveLength(6);
    }
    expect(messages.filter((message) => line(message) === 'categories acquire')).toHaveLength(3);
    expect(messages[0]?.payload.data).toMatchObject({ actor: 'alice', editor: 'alice' });
  });

  it('lets the receiver detect a forged or altered message', async () => {
    const { receiver } = await registered({ tables: ['categories'] });
    await lockAndRelease('categories');
    const [message] = await distinct(receiver, 1);
    if (!message) throw new Error('no message');
    const tampered = message.body.replace('"alice"', '"mallory"');
    expect(() => new Webhook(receiver.secret).verify(tampered, message.headers)).toThrow();
    const otherSecret = `whsec_${Buffer.from('not the secret at all, 32 bytes!').toString('base64')}`;
    expect(() => new Webhook(otherSecret).verify(message.body, message.headers)).toThrow();
  });

  it('keeps retrying while the receiver is down and then delivers everything in order', async () => {
    const { receiver } = await registered({ tables: ['categories'] });
    await receiver.stop();
    await lockAndRelease('categories', 2);
    await poll('three failed attempts', 10_000, async () => {
      const { data } = await execute(admin, webhooksQuery);
      const failures = data?.webhooks[0]?.deliveries.filter((delivery) => !delivery.delivered);
      return (failures?.length ?? 0) >= 3 ? true : undefined;
    });
    await receiver.start();
    const messages = await distinct(receiver, 4);
    expect(messages.map(line)).toEqual([
      'categories acquire',
      'categories release',
      'categories acquire',
      'categories release',
    ]);
  });

  it('sends a change of rows in batches that hold every row, in order, to endpoints that ask', async () => {
    const { receiver } = await registered({
      tables: ['currencies'],
      withRows: true,
      eventTypes: ['save'],
    });
    const grant = await acquireTableLockAs(alice, 'currencies');
    const codes = ['XAA', 'XAB', 'XAC', 'XAD', 'XAE'];
    const saved = await execute(alice, saveRowsMutation, {
      table: 'currencies',
      token: grant.token,
      changes: {
        inserts: codes.map((code) => ({
          values: { code, name: `Test ${code}`, minor_units: '2', active: 'true' },
        })),
      },
    });
    expect(saved.errors).toBeUndefined();
    await releaseTableLockAs(alice, 'currencies', grant.token);
    const batches = await poll('the last batch', 20_000, async () => {
      const unique = withoutRepeats(receiver.received);
      return unique.some((message) => message.payload.data.lastBatch) ? unique : undefined;
    });
    expect(batches.map((message) => (message.payload.data.rows as unknown[]).length)).toEqual([
      2, 2, 1,
    ]);
    const rows = batches.flatMap(
      (message) => message.payload.data.rows as { key: { code: string } }[],
    );
    expect(rows.map((row) => row.key.code)).toEqual(codes);
    expect(batches.every((message) => message.payload.type === 'save')).toBe(true);
    expect(batches[0]?.payload.data).toMatchObject({ inserted: 5 });
  });

  it.each([
    ['http://10.1.2.3/hooks', 'is a private address'],
    ['http://169.254.169.254/latest/meta-data', 'is a linkLocal address'],
    ['http://[::1]:8080/', 'is a loopback address'],
    // IPv4-compatible IPv6 (::/96): the kernel may reach the IPv4 address inside it.
    ['http://[::127.0.0.1]:8080/', 'is a ipv4Compatible address'],
    ['http://[::169.254.169.254]/latest/meta-data', 'is a ipv4Compatible address'],
    ['http://[::ffff:127.0.0.1]:8080/', 'is a loopback address'],
    ['http://[::ffff:10.1.2.3]/', 'is a private address'],
    ['http://[64:ff9b::10.1.2.3]/', 'is a rfc6052 address'],
    ['http://[2002:a01:203::1]/', 'is a 6to4 address'],
    ['http://[::]:8080/', 'is a unspecified address'],
    ['http://[fd00::1]/', 'is a uniqueLocal address'],
    ['http://[100::1]/', 'is a discard address'],
    // Outside global unicast (2000::/3), in no range ipaddr.js names.
    ['http://[4000::1]/', 'is a notGlobalUnicast address'],
    ['http://localhost:8080/', 'is a loopback address'],
    ['ftp://example.com/', 'starts with https:// or http://'],
    ['not a url', 'is not a URL'],
  ])('refuses %s as BAD_USER_INPUT', async (url, message) => {
    const response = await execute(admin, createWebhookMutation, { webhook: { url } });
    expect(response.errors?.[0]?.message).toContain(message);
    expect(response.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it.each(['http://[2606:4700:4700::1111]/hooks', 'http://[::ffff:8.8.8.8]/hooks'])(
    'accepts the public address %s',
    async (url) => {
      const response = await execute(admin, createWebhookMutation, {
        webhook: { url, tables: ['categories'] },
      });
      expect(response.errors).toBeUndefined();
    },
  );

  it.each([
    [{ eventTypes: ['acquired'] }, 'There is no event type acquired.'],
    [{ tables: ['no_such_table'] }, 'There is no table no_such_table.'],
  ])('refuses %j as BAD_USER_INPUT', async (input, message) => {
    const response = await execute(admin, createWebhookMutation, {
      webhook: { url: 'http://127.0.0.1:9/', ...input },
    });
    expect(response.errors?.[0]).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('sends a logged message again, with the same webhook-id', async () => {
    const { receiver } = await registered({ tables: ['categories'] });
    await lockAndRelease('categories');
    const [first] = await distinct(receiver, 1);
    // The log is written when the sender's transaction commits, after the receiver answered.
    const logged = await poll('the delivery logged', 10_000, async () => {
      const { data } = await execute(admin, webhooksQuery);
      return data?.webhooks[0]?.deliveries.find((entry) => entry.messageId === first?.id);
    });
    const resent = await execute(admin, resendMutation, { id: logged.id });
    expect(resent.data?.resendWebhookDelivery).toMatchObject({
      messageId: first?.id,
      delivered: true,
      responseStatus: 204,
    });
    expect(receiver.received.filter((message) => message.id === first?.id)).toHaveLength(2);
    const unknown = await execute(admin, resendMutation, { id: '999999' });
    expect(unknown.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('follows no redirect: a 3xx answer is a failure, and its target gets nothing', async () => {
    const target = await startWebhookReceiver();
    receivers.push(target);
    const redirecting = http.createServer((_request, response) => {
      response.writeHead(307, { location: target.url }).end();
    });
    redirecting.listen(0, '127.0.0.1');
    await once(redirecting, 'listening');
    const { port } = redirecting.address() as AddressInfo;
    try {
      const created = await execute(admin, createWebhookMutation, {
        webhook: { url: `http://127.0.0.1:${port}/hooks`, tables: ['categories'] },
      });
      expect(created.errors).toBeUndefined();
      await lockAndRelease('categories');
      const failed = await poll('a failed delivery', 10_000, async () => {
        const { data } = await execute(admin, webhooksQuery);
        return data?.webhooks[0]?.deliveries.find((delivery) => !delivery.delivered);
      });
      expect(failed).toMatchObject({ responseStatus: 307, error: 'HTTP 307' });
      expect(target.received).toEqual([]);
    } finally {
      redirecting.close();
    }
  });

  it('counts an answer that does not come within the time limit as a failure', async () => {
    const { receiver } = await registered({ tables: ['suppliers'] });
    receiver.beforeAnswer = () => new Promise(() => {});
    await lockAndRelease('suppliers');
    // On a loaded machine an attempt can run out of time before the receiver has read it;
    // the retries that follow reach it.
    await poll('the receiver got the message', 15_000, async () =>
      receiver.received.length > 0 ? true : undefined,
    );
    const failed = await poll('a delivery timed out', 15_000, async () => {
      const { data } = await execute(admin, webhooksQuery);
      return data?.webhooks[0]?.deliveries.find((delivery) => !delivery.delivered);
    });
    expect(failed).toMatchObject({ responseStatus: null, delivered: false });
    expect(failed?.error).toBe('no answer within 2000 ms');
  });

  it('deletes an endpoint at once while one of its messages waits for an answer, and logs that message', async () => {
    const { receiver, id } = await registered({ tables: ['suppliers'] });
    let answer = () => {};
    receiver.beforeAnswer = () => new Promise<void>((resolve) => (answer = resolve));
    await lockAndRelease('suppliers');
    await poll('the receiver got the message', 15_000, async () =>
      receiver.received.length > 0 ? true : undefined,
    );
    // The delivery holds no lock while it waits: the delete does not wait for the answer.
    expect((await execute(admin, deleteWebhookMutation, { id })).errors).toBeUndefined();
    expect((await execute(admin, webhooksQuery)).data?.webhooks).toEqual([]);
    answer();
    // What left, and where to, is logged though its endpoint is gone.
    const [message] = receiver.received;
    const logged = await poll('the delivery logged', 10_000, async () => {
      const [row] = await database.prisma.$queryRaw<
        { webhook_id: bigint | null; url: string; delivered: boolean }[]
      >`SELECT webhook_id, url, delivered FROM tablelock.webhook_delivery
        WHERE message_id = ${message?.id} AND url = ${receiver.url}`;
      return row;
    });
    expect(logged).toEqual({ webhook_id: null, url: receiver.url, delivered: true });
  });

  it('records creating, changing and deleting an endpoint as security events; its log outlives it', async () => {
    const settings = { tables: ['categories'], eventTypes: ['release'], withRows: true };
    const { receiver, id } = await registered(settings);
    await lockAndRelease('categories');
    const [message] = await distinct(receiver, 1);
    const logged = await poll('the delivery logged', 10_000, async () => {
      const { data } = await execute(admin, webhooksQuery);
      return data?.webhooks[0]?.deliveries.find((entry) => entry.messageId === message?.id);
    });
    const changed = await execute(admin, updateWebhookMutation, {
      id,
      change: { tables: ['categories', 'suppliers'], enabled: false },
    });
    expect(changed.errors).toBeUndefined();
    expect((await execute(admin, deleteWebhookMutation, { id })).errors).toBeUndefined();

    const events = await database.prisma.securityEvent.findMany({
      where: { subject: `webhook ${id}` },
      orderBy: { id: 'asc' },
    });
    const endpoint = { url: receiver.url, ...settings, enabled: true };
    const after = { ...endpoint, tables: ['categories', 'suppliers'], enabled: false };
    expect(events.map(({ action, actor, details }) => ({ action, actor, details }))).toEqual([
      { action: 'webhook_created', actor: 'admin', details: { changes: endpoint } },
      {
        action: 'webhook_changed',
        actor: 'admin',
        details: { changes: { ...after, previous: endpoint } },
      },
      { action: 'webhook_deleted', actor: 'admin', details: { changes: after } },
    ]);
    // What left, when and to where stays readable after the endpoint is gone.
    const kept = await database.prisma.$queryRaw<{ url: string; delivered: boolean }[]>`
      SELECT url, delivered FROM tablelock.webhook_delivery WHERE message_id = ${message?.id}`;
    expect(kept).toEqual([{ url: receiver.url, delivered: true }]);
    const resent = await execute(admin, resendMutation, { id: logged.id });
    expect(resent.errors?.[0]).toMatchObject({
      message: 'Its webhook endpoint was deleted.',
      extensions: { code: 'NOT_FOUND' },
    });
  });

  it('shows the secret once, at creation, and never in the list', async () => {
    const { receiver } = await registered();
    const listed = await execute(admin, webhooksQuery);
    expect(JSON.stringify(listed)).not.toContain(receiver.secret.slice(6));
  });
});

// Its own API and database: with a give-up of seconds, the other tests' endpoints would be
// disabled whenever their receivers are down a little longer on a busy machine.
describe('an endpoint failing for WEBHOOK_GIVE_UP_SECONDS', () => {
  let ownDatabase: TestDatabase;
  let ownApi: TestApi;
  let ownAdmin: TestClient;
  let ownAlice: TestClient;
  beforeAll(async () => {
    ownDatabase = await createTestDatabase();
    ownApi = await startTestApi(ownDatabase, {
      webhooks: { ...WEBHOOK_SETTINGS, giveUpSeconds: GIVE_UP_SECONDS },
    });
    [ownAdmin, ownAlice] = await Promise.all([ownApi.loginAs('admin'), ownApi.loginAs('alice')]);
  });
  afterAll(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
    await ownApi?.stop();
    await ownDatabase?.close();
  });

  it('is disabled, and admins are told why', async () => {
    const { receiver } = await registered({ tables: ['suppliers'] }, ownAdmin);
    await receiver.stop();
    await lockAndRelease('suppliers', 1, ownAlice);
    const disabled = await poll('the endpoint disabled', 20_000, async () => {
      const { data } = await execute(ownAdmin, webhooksQuery);
      const [hook] = data?.webhooks ?? [];
      return hook?.disabledAt ? hook : undefined;
    });
    expect(disabled.disabledReason).toContain(`Failing for ${GIVE_UP_SECONDS} s`);
    // Admins are told in the security events, as of every change to what reaches other systems.
    const [told] = await ownDatabase.prisma.securityEvent.findMany({
      where: { action: 'webhook_disabled' },
    });
    expect(told).toMatchObject({ actor: 'system', subject: `webhook ${disabled.id}` });
    expect(told?.details).toMatchObject({ url: disabled.url, reason: disabled.disabledReason });
  });
});
