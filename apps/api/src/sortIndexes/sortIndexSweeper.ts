import type { Logger } from 'pino';
import type { SortIndexes } from '../ports/sortIndexes';

export interface SortIndexSweeperOptions {
  sortIndexes: SortIndexes;
  logger: Logger;
  /** Sort indexes no sort asked for in this many days are dropped (SORT_INDEX_UNUSED_DAYS). */
  unusedDays: number;
  /** How often to look: the bound is days, so hourly is plenty. */
  intervalMs?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Drops the sort indexes nobody sorted by for `unusedDays`, so that columns sorted by once
 * do not slow the table's writes for ever. Every API process runs one; a drop takes the
 * table's build lock, so they never drop or build on one table at once. Returns a stop.
 */
export function startSortIndexSweeper({
  sortIndexes,
  logger,
  unusedDays,
  intervalMs = 60 * 60 * 1000,
}: SortIndexSweeperOptions): () => Promise<void> {
  let running: Promise<void> | undefined;
  const sweep = async () => {
    try {
      const dropped = await sortIndexes.dropUnused(new Date(Date.now() - unusedDays * DAY_MS));
      if (dropped > 0) logger.info({ dropped, unusedDays }, 'dropped unused sort indexes');
    } catch (error) {
      logger.warn({ err: error }, 'could not drop unused sort indexes');
    }
  };
  const timer = setInterval(() => {
    running ??= sweep().finally(() => {
      running = undefined;
    });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
