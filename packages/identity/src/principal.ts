import type { Role } from '@tablelock/db';

/**
 * Who is calling. `name` is what lock records show as the editor: a user's username, or
 * `key:<name>` for an API key, so that no key can pass for a person.
 */
export interface Principal {
  kind: 'user' | 'apiKey';
  id: string;
  name: string;
  role: Role;
  /** The user's identity-provider groups (table policies may name them); none for API keys. */
  groups: string[];
}

export const API_KEY_PREFIX = 'key:';
