import { inTransaction, type Prisma, type Queryable, recordHistoryPurge } from '@tablelock/db';
import { DomainError } from '@tablelock/errors';

export interface WebhookDeliveryRecord {
  id: string;
  messageId: string;
  eventId: string;
  table: string;
  type: string;
  attempt: number;
  at: Date;
  responseStatus: number | null;
  latencyMs: number;
  delivered: boolean;
  error: string | null;
}

export const MAX_DELIVERIES_PAGE = 200;

/** One logged attempt; NOT_FOUND when there is none by that id. */
export async function readWebhookDelivery(
  db: Queryable,
  id: bigint,
): Promise<WebhookDeliveryRecord> {
  const row = await db.webhookDelivery.findUnique({ where: { id } });
  if (!row) throw new DomainError('NOT_FOUND', `There is no webhook delivery ${id}.`);
  return shown(row);
}

/** An endpoint's delivery log, newest first. */
export async function readWebhookDeliveries(
  db: Queryable,
  webhookId: string,
  first: number,
): Promise<WebhookDeliveryRecord[]> {
  if (!Number.isInteger(first) || first < 1 || first > MAX_DELIVERIES_PAGE) {
    throw new DomainError('BAD_USER_INPUT', `first must be 1 to ${MAX_DELIVERIES_PAGE}.`);
  }
  const rows = await db.webhookDelivery.findMany({
    where: { webhookId: BigInt(webhookId) },
    orderBy: { id: 'desc' },
    take: first,
  });
  return rows.map(shown);
}

/**
 * Deletes at most `batchSize` deliveries older than `retentionDays` (database clock), of live
 * and deleted endpoints alike, and records it, in one short transaction. Returns how many it
 * deleted; fewer than `batchSize` means none are left.
 */
export function purgeWebhookDeliveries(
  db: Queryable,
  { retentionDays, batchSize }: { retentionDays: number; batchSize: number },
): Promise<number> {
  return inTransaction(db, async (tx) => {
    const deleted = await tx.$executeRaw`
      DELETE FROM tablelock.webhook_delivery WHERE id IN (
        SELECT id FROM tablelock.webhook_delivery
        WHERE at < now() - make_interval(days => ${retentionDays}::int)
        LIMIT ${batchSize})`;
    if (deleted > 0) {
      await recordHistoryPurge(tx, {
        subject: 'webhook deliveries',
        retentionDays,
        deleted: { webhookDeliveries: deleted },
      });
    }
    return deleted;
  });
}

function shown(row: Prisma.WebhookDeliveryGetPayload<object>): WebhookDeliveryRecord {
  return {
    id: row.id.toString(),
    messageId: row.messageId,
    eventId: row.eventId.toString(),
    table: row.tableName,
    type: row.type,
    attempt: row.attempt,
    at: row.at,
    responseStatus: row.responseStatus,
    latencyMs: row.latencyMs,
    delivered: row.delivered,
    error: row.error,
  };
}
