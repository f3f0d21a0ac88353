import type { Principal } from '@tablelock/identity';
import type { CredentialChange } from './credentialChangeFeed';

export type CredentialKind = 'apiKey' | 'session';

/** What resolving a secret found: the principal, and (for a session) how long it has left. */
export interface ResolvedCredential {
  principal: Principal;
  /** At most this long from now (a session's time left by the database clock). */
  validForMs?: number;
}

/**
 * This process's memory of the API keys and sessions it resolved, so that a busy client is not
 * looked up in the database on every request. An entry is dropped when the database announces
 * a change to its principal's credentials (any process, see credentialChangeFeed), after
 * CREDENTIAL_CACHE_MS, or when its session runs out; everything is dropped, and nothing is
 * served from memory, while announcements may be missed (the LISTEN connection is down).
 * Unknown or revoked secrets are never remembered: each is looked up again.
 */
export interface CredentialCache {
  /**
   * `secret`'s principal: remembered, else `resolve`d (and then remembered). A remembered one is
   * served once every change committed before `since` (when the request arrived, as a
   * `performance.now()` time; else now) has been heard.
   */
  principalOf(
    kind: CredentialKind,
    secret: string,
    resolve: () => Promise<ResolvedCredential | null>,
    since?: number,
  ): Promise<Principal | null>;
  /** Forgets what this process itself just changed, before the announcement comes back. */
  forget(change: CredentialChange): void;
  forgetSession(token: string): void;
}
