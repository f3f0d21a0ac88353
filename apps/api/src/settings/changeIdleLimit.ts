import type { PrismaClient } from '@tablelock/db';
import { type SecurityAudit, withSecurityEvents } from '@tablelock/identity';
import { setGlobalIdleLimit, setTableIdleLimit } from '@tablelock/lock';

/** What an idle limit change sets: the global limit, or one table's (null: follow the global). */
export type IdleLimitTarget = { seconds: number } | { table: string; seconds: number | null };

/**
 * Changes an idle limit and records it in the security events, in one transaction: the event
 * exists exactly when the change does. `minSeconds`: the shortest limit this deployment allows.
 */
export function changeIdleLimit(
  prisma: PrismaClient,
  target: IdleLimitTarget,
  audit: SecurityAudit,
  minSeconds: number,
): Promise<void> {
  const change = { actor: audit.actor, minSeconds };
  return withSecurityEvents(prisma, audit.logger, async (tx, record) => {
    const { previousSeconds } =
      'table' in target
        ? await setTableIdleLimit(tx, target.table, target.seconds, change)
        : await setGlobalIdleLimit(tx, target.seconds, change);
    await record({
      action: 'lock_settings_changed',
      actor: audit.actor,
      subject: 'table' in target ? `table:${target.table}` : 'lock_settings',
      ip: audit.ip,
      details: { idleLimitSeconds: target.seconds, previousIdleLimitSeconds: previousSeconds },
    });
  });
}
