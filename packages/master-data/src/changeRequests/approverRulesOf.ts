import type { Queryable } from '@tablelock/db';
import type { ApproverRules } from './core/approverRules';

/** Who may approve `tableName`'s change requests, from its policy (any editor without one). */
export async function approverRulesOf(db: Queryable, tableName: string): Promise<ApproverRules> {
  const policy = await db.tablePolicy.findUnique({
    where: { tableName },
    select: { approverRoles: true, approverGroups: true },
  });
  return policy ?? { approverRoles: [], approverGroups: [] };
}
