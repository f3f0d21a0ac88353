import type { PrismaClient, TakeOverRule, WriteGuard } from '@tablelock/db';
import { type SecurityAudit, withSecurityEvents } from '@tablelock/identity';
import {
  setTablePolicy,
  setTakeOverRule,
  type TablePolicy,
  type TablePolicyChange,
  type TakeOverSettings,
} from '@tablelock/lock';
import { requireLabelColumn, requireRowLockColumn } from '@tablelock/master-data';

/** What the security history calls the take-over rule, as a change's subject. */
export const TAKE_OVER_RULE_SUBJECT = 'take-over rule';

/**
 * Changes a table's policy and records it in the security history, in one transaction. A label
 * column and a row-lock column are checked against the table in `masterSchema` first.
 */
export function changeTablePolicy(
  prisma: PrismaClient,
  request: {
    tableName: string;
    change: TablePolicyChange;
    writeGuardDefault?: WriteGuard;
    masterSchema: string;
  },
  audit: SecurityAudit,
): Promise<TablePolicy> {
  return withSecurityEvents(prisma, audit.logger, async (tx, record) => {
    const { labelColumn, rowLockColumn } = request.change;
    if (labelColumn != null) {
      await requireLabelColumn(tx, request.masterSchema, request.tableName, labelColumn);
    }
    if (rowLockColumn != null) {
      await requireRowLockColumn(tx, request.masterSchema, request.tableName, rowLockColumn);
    }
    const policy = await setTablePolicy(tx, { ...request, actor: audit.actor });
    await record({
      action: 'table_policy_changed',
      actor: audit.actor,
      subject: request.tableName,
      ip: audit.ip,
      // As stored (group names trimmed and sorted), only the settings given.
      details: {
        changes: Object.fromEntries(
          Object.keys(request.change).map((key) => [key, policy[key as keyof TablePolicyChange]]),
        ),
      },
    });
    return policy;
  });
}

/** Sets the take-over rule and records it in the security history, in one transaction. */
export function changeTakeOverRule(
  prisma: PrismaClient,
  request: { rule: TakeOverRule; idleMinutes?: number | null },
  audit: SecurityAudit,
): Promise<TakeOverSettings> {
  return withSecurityEvents(prisma, audit.logger, async (tx, record) => {
    const settings = await setTakeOverRule(tx, { ...request, actor: audit.actor });
    await record({
      action: 'take_over_rule_changed',
      actor: audit.actor,
      subject: TAKE_OVER_RULE_SUBJECT,
      ip: audit.ip,
      details: { changes: { rule: settings.rule, idleMinutes: settings.idleMinutes } },
    });
    return settings;
  });
}
