import type { TableLock } from './TableLock';
import { connectToApi, type TablelockClientConfig } from './tablelockApi';
import { type WithTableLockOptions, withTableLock } from './withTableLock';

export interface TablelockClient {
  /**
   * Runs `work` while holding `tables` (one, or several: all or nothing), renewing the lease,
   * and releases them when it returns, throws, or the process is stopped (SIGINT, SIGTERM).
   * `lock.signal` aborts the moment the lock is lost; `lock.saveRows` writes behind its token.
   */
  withTableLock<T>(
    tables: string | readonly string[],
    work: (lock: TableLock) => Promise<T>,
    options?: WithTableLockOptions,
  ): Promise<T>;
}

/** A client of the tablelock API at `config.url`, calling with API key `config.apiKey`. */
export function createTablelockClient(config: TablelockClientConfig): TablelockClient {
  const api = connectToApi(config);
  return {
    withTableLock: (tables, work, options) => withTableLock(api, tables, work, options),
  };
}
