import { Prisma, type Queryable } from '@tablelock/db';
import { DomainError } from '@tablelock/errors';
import { isEventType } from '../eventTypes';
import { newWebhookSecret } from './webhookSecret';
import { parseWebhookUrl, resolveWebhookTarget } from './webhookTarget';

/** An endpoint as admins see it: never its secret. */
export interface WebhookEndpoint {
  id: string;
  url: string;
  eventTypes: string[];
  tables: string[];
  withRows: boolean;
  createdAt: Date;
  createdBy: string;
  disabledAt: Date | null;
  disabledReason: string | null;
}

export interface WebhookSettings {
  url: string;
  /** Empty: every type. */
  eventTypes: readonly string[];
  /** Empty: every table. */
  tables: readonly string[];
  withRows: boolean;
}

const ENDPOINT_COLUMNS = {
  id: true,
  url: true,
  eventTypes: true,
  tables: true,
  withRows: true,
  createdAt: true,
  createdBy: true,
  disabledAt: true,
  disabledReason: true,
} as const;

const ENDPOINT_SQL_COLUMNS = Prisma.sql`id, url, event_types AS "eventTypes", tables,
  with_rows AS "withRows", created_at AS "createdAt", created_by AS "createdBy",
  disabled_at AS "disabledAt", disabled_reason AS "disabledReason"`;

type EndpointRow = { id: bigint } & Omit<WebhookEndpoint, 'id'>;

function shown(row: EndpointRow): WebhookEndpoint {
  return { ...row, id: row.id.toString() };
}

async function requireValid(
  db: Queryable,
  settings: Partial<WebhookSettings>,
  allowedHosts: readonly string[],
): Promise<void> {
  if (settings.url !== undefined) {
    await resolveWebhookTarget(parseWebhookUrl(settings.url), allowedHosts);
  }
  const unknownType = settings.eventTypes?.find((type) => !isEventType(type));
  if (unknownType !== undefined) {
    throw new DomainError('BAD_USER_INPUT', `There is no event type ${unknownType}.`);
  }
  if (settings.tables && settings.tables.length > 0) {
    const known = await db.tableLock.findMany({
      where: { tableName: { in: [...settings.tables] } },
      select: { tableName: true },
    });
    const names = new Set(known.map((row) => row.tableName));
    const unknown = settings.tables.find((table) => !names.has(table));
    if (unknown !== undefined) {
      throw new DomainError('BAD_USER_INPUT', `There is no table ${unknown}.`);
    }
  }
}

/**
 * Registers an endpoint for the events from now on; its signing secret is in the answer and
 * nowhere else ever after. `allowedHosts`: WEBHOOK_ALLOWED_HOSTS.
 */
export async function createWebhook(
  db: Queryable,
  settings: WebhookSettings,
  actor: string,
  allowedHosts: readonly string[],
): Promise<{ webhook: WebhookEndpoint; secret: string }> {
  await requireValid(db, settings, allowedHosts);
  const secret = newWebhookSecret();
  const [last] = await db.$queryRaw<{ position: bigint }[]>`
    SELECT coalesce(max(position), 0) AS position FROM tablelock.outbox_event`;
  const row = await db.webhook.create({
    data: {
      url: settings.url,
      eventTypes: [...settings.eventTypes],
      tables: [...settings.tables],
      withRows: settings.withRows,
      secret,
      afterPosition: last?.position ?? 0n,
      createdBy: actor,
    },
    select: ENDPOINT_COLUMNS,
  });
  return { webhook: shown(row), secret };
}

/**
 * Changes an endpoint's settings; `enabled: true` starts a disabled one again where it
 * stopped. NOT_FOUND for an unknown id.
 */
export async function updateWebhook(
  db: Queryable,
  id: string,
  change: Partial<WebhookSettings> & { enabled?: boolean },
  allowedHosts: readonly string[],
): Promise<WebhookEndpoint> {
  await requireValid(db, change, allowedHosts);
  const { enabled, url, withRows, eventTypes, tables } = change;
  const updated = await db.webhook.updateManyAndReturn({
    where: { id: webhookId(id) },
    data: {
      ...(url === undefined ? {} : { url }),
      ...(withRows === undefined ? {} : { withRows }),
      ...(eventTypes ? { eventTypes: [...eventTypes] } : {}),
      ...(tables ? { tables: [...tables] } : {}),
      ...(enabled === true ? { disabledAt: null, disabledReason: null } : {}),
      ...(enabled === false
        ? { disabledAt: new Date(), disabledReason: 'disabled by an admin' }
        : {}),
    },
    select: ENDPOINT_COLUMNS,
  });
  const [row] = updated;
  if (!row) throw new DomainError('NOT_FOUND', `There is no webhook ${id}.`);
  if (enabled === true) {
    await db.webhookStream.updateMany({
      where: { webhookId: row.id },
      data: { attempts: 0, failingSince: null, nextAttemptAt: new Date() },
    });
  }
  return shown(row);
}

/**
 * Deletes an endpoint and returns it as it was; its delivery log stays (no longer naming it).
 * NOT_FOUND for an unknown id.
 */
export async function deleteWebhook(db: Queryable, id: string): Promise<WebhookEndpoint> {
  const [row] = await db.$queryRaw<EndpointRow[]>`DELETE FROM tablelock.webhook
    WHERE id = ${webhookId(id)} RETURNING ${ENDPOINT_SQL_COLUMNS}`;
  if (!row) throw new DomainError('NOT_FOUND', `There is no webhook ${id}.`);
  return shown(row);
}

/** An endpoint's settings as security events record them. */
export function webhookSettingsOf(webhook: WebhookEndpoint) {
  const { url, eventTypes, tables, withRows } = webhook;
  return { url, eventTypes, tables, withRows, enabled: webhook.disabledAt === null };
}

/**
 * Reads an endpoint and holds its row until the transaction ends, so that what a change
 * records as before is what it changed. Compatible with a delivery's hold on the row (KEY
 * SHARE): it never waits for an answer. NOT_FOUND for an unknown id.
 */
export async function readWebhookForChange(db: Queryable, id: string): Promise<WebhookEndpoint> {
  const [row] = await db.$queryRaw<EndpointRow[]>`
    SELECT ${ENDPOINT_SQL_COLUMNS} FROM tablelock.webhook WHERE id = ${webhookId(id)}
    FOR NO KEY UPDATE`;
  if (!row) throw new DomainError('NOT_FOUND', `There is no webhook ${id}.`);
  return shown(row);
}

export async function listWebhooks(db: Queryable): Promise<WebhookEndpoint[]> {
  const rows = await db.webhook.findMany({ select: ENDPOINT_COLUMNS, orderBy: { id: 'asc' } });
  return rows.map(shown);
}

export function webhookId(id: string): bigint {
  if (!/^[1-9][0-9]{0,18}$/.test(id)) {
    throw new DomainError('NOT_FOUND', `There is no webhook ${id}.`);
  }
  return BigInt(id);
}
