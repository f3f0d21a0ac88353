import { Prisma } from '@tablelock/db';
import { DEFAULT_TABLE_RULES, type Freeze, type TableRules } from '../core/tableRules';
import { TABLE_POLICY } from './registryTables';

/** A table's policy as the lock scope reads it (JSON), or null when it has none. */
export interface PolicyColumns {
  readOnly: boolean;
  editRoles: TableRules['editRoles'];
  editGroups: string[];
  takesPartInLocking: boolean;
  maxLeaseSeconds: number | null;
}

/** A freeze in force as a `table_lock` row is read with it (JSON: dates as text). */
export interface FreezeColumns {
  reason: string;
  by: string;
  at: string | Date;
  until: string | Date | null;
}

/**
 * A column of a query over `table_lock`: its table's policy (JSON, null without one), read with
 * the row.
 */
export const POLICY_COLUMN = Prisma.sql`
  (SELECT jsonb_build_object('readOnly', p.read_only, 'editRoles', p.edit_roles,
            'editGroups', p.edit_groups, 'takesPartInLocking', p.takes_part_in_locking,
            'maxLeaseSeconds', p.max_lease_seconds)
   FROM ${TABLE_POLICY} AS p WHERE p.table_name = table_lock.table_name)`;

/**
 * The freeze in force on a `table_lock` row (JSON), or null: none, or past its end by the
 * database clock. Every reader decides a freeze's end here, on the same clock as the lock changes.
 */
export const FREEZE_IN_FORCE = Prisma.sql`
  CASE WHEN frozen_at IS NOT NULL AND (frozen_until IS NULL OR frozen_until > now())
       THEN jsonb_build_object('reason', frozen_reason, 'by', frozen_by, 'at', frozen_at,
                               'until', frozen_until) END`;

export function freezeOf(freeze: FreezeColumns | null): Freeze | null {
  return (
    freeze && {
      reason: freeze.reason,
      by: freeze.by,
      at: new Date(freeze.at),
      until: freeze.until === null ? null : new Date(freeze.until),
    }
  );
}

export function tableRulesOf(policy: PolicyColumns | null, frozen: Freeze | null): TableRules {
  return { ...DEFAULT_TABLE_RULES, ...(policy ?? {}), frozen };
}
