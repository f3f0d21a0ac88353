import { Prisma } from '@tablelock/db';
import { DEFAULT_TABLE_RULES, type TableRules } from '../core/tableRules';
import { TABLE_POLICY } from './registryTables';

/** A table's policy as the lock scope reads it (JSON), or null when it has none. */
export interface PolicyColumns {
  readOnly: boolean;
  editRoles: TableRules['editRoles'];
  editGroups: string[];
  takesPartInLocking: boolean;
  maxLeaseSeconds: number | null;
}

/** A freeze in force as the lock scope reads it (JSON: dates as text). */
export interface FreezeColumns {
  reason: string;
  by: string;
  at: string | Date;
  until: string | Date | null;
}

/**
 * Columns of a query over `table_lock` that read its rules with the row: `policy` (JSON, null
 * without one), `freeze` (JSON, null unless a freeze is in force by the database clock) and
 * `idle_seconds` (how long the holder has shown no activity).
 */
export const TABLE_RULES_COLUMNS = Prisma.sql`
  (SELECT jsonb_build_object('readOnly', p.read_only, 'editRoles', p.edit_roles,
            'editGroups', p.edit_groups, 'takesPartInLocking', p.takes_part_in_locking,
            'maxLeaseSeconds', p.max_lease_seconds)
   FROM ${TABLE_POLICY} AS p WHERE p.table_name = table_lock.table_name) AS policy,
  CASE WHEN frozen_at IS NOT NULL AND (frozen_until IS NULL OR frozen_until > now())
       THEN jsonb_build_object('reason', frozen_reason, 'by', frozen_by, 'at', frozen_at,
                               'until', frozen_until) END AS freeze,
  extract(epoch FROM now() - last_active_at)::float8 AS idle_seconds`;

export function tableRulesOf(
  policy: PolicyColumns | null,
  freeze: FreezeColumns | null,
): TableRules {
  return {
    ...DEFAULT_TABLE_RULES,
    ...(policy ?? {}),
    frozen: freeze && {
      reason: freeze.reason,
      by: freeze.by,
      at: new Date(freeze.at),
      until: freeze.until === null ? null : new Date(freeze.until),
    },
  };
}
