import type { Role, RoleSource } from '@tablelock/db';

/**
 * Who is calling. `name` is what lock records show as the editor: a user's username, or
 * `key:<name>` for an API key, so that no key can pass for a person.
 */
export interface Principal {
  kind: 'user' | 'apiKey';
  id: string;
  name: string;
  role: Role;
  /**
   * The OpenID provider's groups (its role claim's values) at the user's last sign-in there;
   * empty for other users and for API keys. For policies that go beyond the three roles.
   */
  groups: string[];
  /** `oidc` for a user whose role the provider's claim gave (who signs in there); else `local`. */
  roleSource: RoleSource;
}

export const API_KEY_PREFIX = 'key:';
