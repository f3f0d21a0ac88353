import type { Role } from './role';

/** A freeze in force: nobody may start editing the table. */
export interface Freeze {
  reason: string;
  /** Who froze it. */
  by: string;
  at: Date;
  /** When it ends by itself; null: when an admin thaws it. */
  until: Date | null;
}

/**
 * What an admin decided for one table, as a lock change reads it with the table's row (the
 * table's policy, else the defaults, and a freeze in force).
 */
export interface TableRules {
  /** Never edited in the app; still locked as an FK target. */
  readOnly: boolean;
  /** Who may edit besides admins: these roles or members of these groups; both empty: every editor. */
  editRoles: Role[];
  editGroups: string[];
  /** False: never locked as an FK target, and never edited in the app. */
  takesPartInLocking: boolean;
  /** A longer lease asked for is cut to this; null: no cap beyond the API's own bounds. */
  maxLeaseSeconds: number | null;
  frozen: Freeze | null;
}

/** The rules of a table without a policy. */
export const DEFAULT_TABLE_RULES: TableRules = {
  readOnly: false,
  editRoles: [],
  editGroups: [],
  takesPartInLocking: true,
  maxLeaseSeconds: null,
  frozen: null,
};

/** What the caller may be allowed by a table's policy: their role and identity-provider groups. */
export interface EditorRights {
  role: Role;
  groups: readonly string[];
}

/** Whether `rights` may edit under `rules` (who may edit; admins always may). */
export function mayEdit(rules: TableRules, rights: EditorRights): boolean {
  if (rights.role === 'admin') return true;
  if (rules.editRoles.length === 0 && rules.editGroups.length === 0) return true;
  return (
    rules.editRoles.includes(rights.role) ||
    rights.groups.some((group) => rules.editGroups.includes(group))
  );
}

/** The lease a table's policy allows: a longer one (or none, meaning no expiry) is cut to its maximum. */
export function cappedLease(leaseSeconds: number | null, rules: TableRules): number | null {
  const max = rules.maxLeaseSeconds;
  if (max === null) return leaseSeconds;
  return leaseSeconds === null ? max : Math.min(leaseSeconds, max);
}
