import { Role } from '@tablelock/db';
import { z } from 'zod';
import { roleAtLeast } from '../role';

/**
 * Which of the OpenID provider's groups (the role claim's values) give which role. `*` matches
 * every signed-in user, so `*=viewer` lets anyone the provider signs in read.
 */
export interface RoleMap {
  rules: { group: string; role: Role }[];
}

const role = z.enum(Role);

/**
 * Reads `group=role` pairs separated by commas, e.g. `tablelock-admins=admin,
 * tablelock-editors=editor,*=viewer`. Group names are matched exactly (case included); a name
 * with a comma or an equals sign cannot be mapped.
 */
export function parseRoleMap(text: string): RoleMap {
  const rules = text
    .split(',')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.lastIndexOf('=');
      const group = pair.slice(0, at).trim();
      const parsed = role.safeParse(pair.slice(at + 1).trim());
      if (at <= 0 || group === '' || !parsed.success) {
        throw new Error(
          `"${pair}" is not group=role (role: ${Role.viewer}, ${Role.editor} or ${Role.admin})`,
        );
      }
      return { group, role: parsed.data };
    });
  if (rules.length === 0) throw new Error('no group=role pair');
  return { rules };
}

/** The highest role any of the groups gives, the `*` rule's if none; null when none applies. */
export function roleForGroups(map: RoleMap, groups: readonly string[]): Role | null {
  let best: Role | null = null;
  for (const rule of map.rules) {
    const applies = rule.group === '*' || groups.includes(rule.group);
    if (applies && (best === null || roleAtLeast(rule.role, best))) best = rule.role;
  }
  return best;
}

/**
 * The role claim's values as a list of groups: providers send an array of strings (Entra ID,
 * Okta, Keycloak) or, for a single value, a string. Anything else counts as no group.
 */
export function groupsOfClaim(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((entry) => typeof entry === 'string');
  return [];
}
