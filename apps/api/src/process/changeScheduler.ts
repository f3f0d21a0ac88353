import { isOutcomeUnknown, type PrismaClient } from '@tablelock/db';
import { type UnfinishedLeaves, waitForTableLocks } from '@tablelock/lock';
import {
  applyScheduledEdition,
  applyScheduledRequest,
  readScheduledRequests,
  type ScheduledDue,
  warnTableHolders,
} from '@tablelock/master-data';
import type { Logger } from 'pino';
import type { LockChangeFeed } from '../ports/lockChangeFeed';
import type { ScheduleChanges } from '../ports/scheduleChanges';
import { isDatabaseUnreachable } from './databaseUnreachable';
import { reportRoundFailure } from './reportRoundFailure';

export interface ChangeSchedulerOptions {
  prisma: PrismaClient;
  logger: Logger;
  masterSchema: string;
  /** Requests scheduled or moved, from any process: what wakes the scheduler early. */
  scheduleChanges: ScheduleChanges;
  lockChanges: LockChangeFeed;
  /** This process's mark in the line (its LISTEN connection), also its claim on a request. */
  owner: string;
  unfinishedLeaves: UnfinishedLeaves;
  /** SCHEDULE_MAX_DELAY_SECONDS: how long a request waits in line for its table. */
  maxDelaySeconds: number;
  /** SCHEDULE_WARNING_LEAD_SECONDS: how long before a request's time its table's holders are told. */
  warningLeadSeconds: number;
  onUnreachable?: (error: unknown) => void;
  /** The longest sleep, should a notification go unheard. */
  recheckMs?: number;
}

/** How many of the next requests one look reads. */
const LOOK_AHEAD = 50;
/** The lease of the lock a request is applied under: ends it if this process dies meanwhile. */
const APPLY_LEASE_SECONDS = 300;
/**
 * How soon a run cut off by the database is tried again: a look meanwhile (woken when the
 * database is back) finds the database still away, or runs it; not at once, which a database
 * that answers the look and drops the run would make a busy loop.
 */
const AFTER_CUT_OFF_MS = 1_000;

/**
 * Applies scheduled change requests and editions at their time (applyScheduledRequest,
 * applyScheduledEdition: exactly once across processes, however many run this). It sleeps
 * until the next one's time, measured on the
 * database's clock, and wakes early when a request is scheduled or moved anywhere (NOTIFY), or
 * after `recheckMs` at the latest; no polling loop. At start it finds the requests that fell
 * due while no process ran, and applies them at once: their `lateBySeconds` says how late.
 * `warningLeadSeconds` before a request's time it tells whoever holds its table to release it
 * (warnTableHolders: once per request and holding, across processes), and again for anyone who
 * takes the table in that time: a lock taken then wakes it.
 * Returns a function that stops it, leaving the line for requests still waiting there (another
 * process takes them over once this one's connection is gone).
 */
export function startChangeScheduler(options: ChangeSchedulerOptions): () => Promise<void> {
  const { prisma, logger, owner, recheckMs = 30_000 } = options;
  const running = new Map<string, Promise<void>>();
  // Requests whose run failed other than by their own outcome: tried again after `recheckMs`,
  // not at once, or AFTER_CUT_OFF_MS when the database cut the run off.
  const retryAt = new Map<string, number>();
  const leave = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let looking: Promise<void> | undefined;
  let lookAgain = false;
  let stopped = false;
  const leadMs = options.warningLeadSeconds * 1000;
  // While a request is due within the lead, someone taking a table may need telling: lock
  // changes are heard then, and only then (each one heard is parsed in this process).
  let lockWatch: { stop: () => Promise<void> } | null = null;
  const watchLocksTaken = () => {
    const taken = options.lockChanges.changesForWaiter();
    const watching = (async () => {
      for await (const event of taken) {
        if (event === null || event.action === 'acquire' || event.action === 'take_over') wake();
      }
    })();
    return {
      async stop() {
        await taken.return?.();
        await watching;
      },
    };
  };
  const stopWatchingLocks = async () => {
    const watch = lockWatch;
    lockWatch = null;
    await watch?.stop();
  };

  const takeTables = async (tableNames: string[], editor: string) => {
    // Opened before the first look, so that no release between the look and the wait is missed.
    const changes = options.lockChanges.changesForWaiter();
    try {
      const grants = await waitForTableLocks(prisma, {
        tableNames,
        editor,
        leaseSeconds: APPLY_LEASE_SECONDS,
        waitSeconds: options.maxDelaySeconds,
        owner,
        unfinishedLeaves: options.unfinishedLeaves,
        changes,
        signal: leave.signal,
      });
      return new Map(grants.map((grant) => [grant.tableName, grant.fencingToken]));
    } finally {
      await changes.return?.();
    }
  };
  const takeTable = async (tableName: string, editor: string) => {
    const token = (await takeTables([tableName], editor)).get(tableName);
    if (token === undefined) throw new Error(`no lock of ${tableName} was granted`);
    return token;
  };
  const run = async ({ kind, id }: ScheduledDue) => {
    const settings = { schema: options.masterSchema, id, claimant: owner };
    if (kind === 'edition') {
      const ended = await applyScheduledEdition(prisma, { ...settings, takeTables });
      return ended && { what: { editionId: id }, ...ended };
    }
    const ended = await applyScheduledRequest(prisma, { ...settings, takeTable });
    return ended && { what: { changeRequestId: id, table: ended.tableName }, ...ended };
  };

  const apply = (due: ScheduledDue) => {
    const id = `${due.kind}:${due.id}`;
    const applying = run(due)
      .then((ended) => {
        if (!ended) return;
        const facts = { ...ended.what, late: ended.lateBySeconds };
        if (ended.state === 'applied') logger.info(facts, 'scheduled change applied');
        else logger.warn({ ...facts, failure: ended.failure }, 'scheduled change failed');
      })
      .catch((error: unknown) => {
        // A run the database cut off (an outage, a failover) goes on as soon as it is back: the
        // look that finds it back runs it again. Any other failure waits for the recheck.
        const cutOff = isDatabaseUnreachable(error) || isOutcomeUnknown(error);
        retryAt.set(id, Date.now() + (cutOff ? AFTER_CUT_OFF_MS : recheckMs));
        if (stopped) return;
        reportRoundFailure(error, {
          logger,
          ...(options.onUnreachable ? { onUnreachable: options.onUnreachable } : {}),
          cutOff: 'scheduled change cut off at its commit; the next look finds how it ended',
          failed: 'scheduled change could not be run',
          failedLevel: 'error',
        });
      })
      .finally(() => {
        running.delete(id);
        wake();
      });
    running.set(id, applying);
  };

  const warn = async () => {
    for (const told of await warnTableHolders(prisma, options.warningLeadSeconds)) {
      logger.info(told, 'told the holder of a table that a scheduled change is due soon');
    }
  };

  const look = async () => {
    let sleepMs = recheckMs;
    try {
      const upcoming = await readScheduledRequests(prisma, owner, LOOK_AHEAD);
      if (upcoming.some((next) => next.dueInMs > 0 && next.dueInMs <= leadMs)) {
        // Heard from before the holders are read, so that no lock taken meanwhile is missed.
        lockWatch ??= watchLocksTaken();
        await warn();
      } else {
        await stopWatchingLocks();
      }
      for (const next of upcoming) {
        const id = `${next.kind}:${next.id}`;
        const retry = retryAt.get(id);
        if (running.has(id) || (retry !== undefined && retry > Date.now())) {
          if (retry !== undefined) sleepMs = Math.min(sleepMs, retry - Date.now());
          continue;
        }
        retryAt.delete(id);
        if (next.dueInMs > 0) {
          // In time order: the first not yet due says how long to sleep, until its warning first.
          const untilWarning = next.dueInMs - leadMs;
          sleepMs = Math.min(sleepMs, Math.ceil(untilWarning > 0 ? untilWarning : next.dueInMs));
          break;
        }
        apply(next);
      }
    } catch (error) {
      reportRoundFailure(error, {
        logger,
        ...(options.onUnreachable ? { onUnreachable: options.onUnreachable } : {}),
        cutOff: 'scheduler look cut off; the next one looks again',
        failed: 'scheduler look failed',
        failedLevel: 'error',
      });
    }
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(wake, sleepMs);
  };

  function wake() {
    if (stopped) return;
    if (looking) {
      lookAgain = true;
      return;
    }
    looking = look().finally(() => {
      looking = undefined;
      if (lookAgain) {
        lookAgain = false;
        wake();
      }
    });
  }

  options.scheduleChanges.onChanged(wake);
  wake();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    leave.abort();
    await looking;
    await stopWatchingLocks();
    await Promise.allSettled([...running.values()]);
  };
}
