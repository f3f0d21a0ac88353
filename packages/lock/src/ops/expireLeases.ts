import type { Queryable } from '@tablelock/db';
import { expireDeadLocks } from './changeTableLock';

/**
 * The sweeper's round: releases every editing lock whose lease has run out or whose holder has
 * been idle past the table's idle limit (database clock), with its FK locks, recorded and
 * announced as `expire` by `system` (reason "lease expired" or "idle"). Safe to run from every
 * API process at once: each expiry is one conditional write, so only one of them records it.
 * Returns the tables it expired.
 */
export function expireLeases(db: Queryable): Promise<string[]> {
  return expireDeadLocks(db, null);
}
