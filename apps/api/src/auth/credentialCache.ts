import { createHash } from 'node:crypto';
import type { Principal } from '@tablelock/identity';
import type { CredentialCache, CredentialKind } from '../ports/credentialCache';
import type { CredentialChange, CredentialChangeFeed } from '../ports/credentialChangeFeed';

/** How long a resolved API key or session is trusted without asking the database again. */
export const CREDENTIAL_CACHE_MS = 30_000;
/** Principals remembered at most; the oldest are forgotten first. */
const MAX_ENTRIES = 10_000;

interface Entry {
  principal: Principal;
  /** performance.now() deadline. */
  until: number;
}

export function createCredentialCache(feed: CredentialChangeFeed): CredentialCache {
  const entries = new Map<string, Entry>();
  /** Cache keys by principal (`kind:id`), to drop all of a principal's sessions at once. */
  const byPrincipal = new Map<string, Set<string>>();
  const principalKey = ({ kind, id }: CredentialChange) => `${kind}:${id}`;
  // Only a hash of the secret is kept in memory, as in the database.
  const cacheKey = (kind: CredentialKind, secret: string) =>
    `${kind}:${createHash('sha256').update(secret).digest('base64url')}`;

  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    const owner = principalKey(entry.principal);
    byPrincipal.get(owner)?.delete(key);
    if (byPrincipal.get(owner)?.size === 0) byPrincipal.delete(owner);
  };
  // Counts changes heard: a lookup that a change overtook (it read the database before the
  // change committed, the announcement came before its answer) must not be remembered.
  let changesHeard = 0;
  const forget = (change: CredentialChange) => {
    changesHeard++;
    for (const key of byPrincipal.get(principalKey(change)) ?? []) drop(key);
  };
  const clear = () => {
    changesHeard++;
    entries.clear();
    byPrincipal.clear();
  };
  feed.subscribe(forget);
  feed.onMissed(clear);

  return {
    async principalOf(kind, secret, resolve, since) {
      const key = cacheKey(kind, secret);
      if (feed.isListening() && entries.has(key)) {
        // A change committed through another process before this request must be heard first,
        // though its announcement may still be on the way: a revoked key is refused at once
        // everywhere.
        const caughtUp = await feed.catchUp(since);
        const entry = entries.get(key);
        if (caughtUp && entry && entry.until > performance.now()) return entry.principal;
        drop(key);
      }
      const heardBefore = changesHeard;
      const resolved = await resolve();
      if (!resolved) return null;
      if (changesHeard !== heardBefore || !feed.isListening()) return resolved.principal;
      const validForMs = Math.min(CREDENTIAL_CACHE_MS, resolved.validForMs ?? CREDENTIAL_CACHE_MS);
      if (validForMs <= 0) return resolved.principal;
      if (entries.size >= MAX_ENTRIES) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) drop(oldest);
      }
      drop(key);
      entries.set(key, { principal: resolved.principal, until: performance.now() + validForMs });
      const owner = principalKey(resolved.principal);
      const keys = byPrincipal.get(owner) ?? new Set<string>();
      keys.add(key);
      byPrincipal.set(owner, keys);
      return resolved.principal;
    },
    forget,
    forgetSession(token) {
      changesHeard++;
      drop(cacheKey('session', token));
    },
  };
}
