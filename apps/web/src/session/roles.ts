import type { Role } from '../generated/graphql';

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

/** Whether `role` may do what `required` may (admins edit too; viewers only read). */
export function roleAtLeast(role: Role, required: Role): boolean {
  return RANK[role] >= RANK[required];
}
