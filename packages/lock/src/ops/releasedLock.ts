import type { LockChangeResult } from './changeTableLock';

/** A lock that has just ended, with everything it held. */
export interface ReleasedLock {
  tableName: string;
  /** Who was editing the table until now. */
  editor: string | null;
}

export function releasedLockOf(result: LockChangeResult, tableName: string): ReleasedLock {
  return { tableName, editor: result.previous?.editor ?? null };
}
