import type { PrismaClient } from '@tablelock/db';
import { type SecurityAudit, withSecurityEvents } from '@tablelock/identity';
import {
  createWebhook,
  deleteWebhook,
  readWebhookForChange,
  updateWebhook,
  type WebhookEndpoint,
  type WebhookSettings,
  webhookSettingsOf,
} from '@tablelock/outbox';

// An endpoint sends the tables' data out: who opened, changed or closed that way, and to where,
// is in the security events, written in the transaction of the change.

/** Registers an endpoint (see createWebhook) and records it: `webhook_created`. */
export function registerWebhook(
  prisma: PrismaClient,
  settings: WebhookSettings,
  allowedHosts: readonly string[],
  audit: SecurityAudit,
): Promise<{ webhook: WebhookEndpoint; secret: string }> {
  return withSecurityEvents(prisma, audit.logger, async (tx, record) => {
    const created = await createWebhook(tx, settings, audit.actor, allowedHosts);
    await record({
      action: 'webhook_created',
      actor: audit.actor,
      subject: `webhook ${created.webhook.id}`,
      ip: audit.ip,
      details: { changes: webhookSettingsOf(created.webhook) },
    });
    return created;
  });
}

/** Changes an endpoint (see updateWebhook) and records it, before and after: `webhook_changed`. */
export function changeWebhook(
  prisma: PrismaClient,
  id: string,
  change: Partial<WebhookSettings> & { enabled?: boolean },
  allowedHosts: readonly string[],
  audit: SecurityAudit,
): Promise<WebhookEndpoint> {
  return withSecurityEvents(prisma, audit.logger, async (tx, record) => {
    const before = await readWebhookForChange(tx, id);
    const after = await updateWebhook(tx, id, change, allowedHosts);
    await record({
      action: 'webhook_changed',
      actor: audit.actor,
      subject: `webhook ${after.id}`,
      ip: audit.ip,
      details: { changes: { ...webhookSettingsOf(after), previous: webhookSettingsOf(before) } },
    });
    return after;
  });
}

/** Deletes an endpoint, keeping its delivery log, and records it: `webhook_deleted`. */
export function removeWebhook(
  prisma: PrismaClient,
  id: string,
  audit: SecurityAudit,
): Promise<void> {
  return withSecurityEvents(prisma, audit.logger, async (tx, record) => {
    const deleted = await deleteWebhook(tx, id);
    await record({
      action: 'webhook_deleted',
      actor: audit.actor,
      subject: `webhook ${deleted.id}`,
      ip: audit.ip,
      details: { changes: webhookSettingsOf(deleted) },
    });
  });
}
