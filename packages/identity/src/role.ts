import type { Role } from '@tablelock/db';

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

/** Roles are ordered: an admin may do all an editor may, an editor all a viewer may. */
export function roleAtLeast(role: Role, minimum: Role): boolean {
  return RANK[role] >= RANK[minimum];
}
