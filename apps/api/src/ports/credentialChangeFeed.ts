import type { Principal } from '@tablelock/identity';

/**
 * Whose credentials changed. Announcements missed while the LISTEN connection was down are
 * covered by the subscription server, which then closes every connection (each reconnects and
 * is authenticated anew).
 */
export type CredentialChange = Pick<Principal, 'kind' | 'id'>;

/** Credential changes as they commit, made by any process on the same database. */
export interface CredentialChangeFeed {
  /** Calls `onChange` for each change; returns a function that stops it. */
  subscribe(onChange: (change: CredentialChange) => void): () => void;
  /** Calls `onMissed` whenever announcements may have gone unheard (the LISTEN connection was back after a drop). */
  onMissed(onMissed: () => void): void;
  /** Whether announcements are being heard now. */
  isListening(): boolean;
  /**
   * Resolves true once every change committed before `since` (a `performance.now()` time, at the
   * latest the call's own) has been passed to subscribers; false if that cannot be known now
   * (the LISTEN connection is down).
   */
  catchUp(since?: number): Promise<boolean>;
}
