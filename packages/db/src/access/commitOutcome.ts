import pg from 'pg';

/**
 * A commit whose fate is unknown: Postgres kept it locally but gave up waiting for a synchronous
 * standby (a failover may lose it), or the connection broke before its answer came. The work
 * must not be reported as done; a retry with the same idempotency key finds out what happened.
 */
export class OutcomeUnknownError extends Error {
  readonly code = 'OUTCOME_UNKNOWN';
}

const SYNC_WAIT_CUT =
  'The commit was not confirmed by a synchronous standby: a failover may lose it.';
const ANSWER_LOST = 'The connection broke before the commit was answered.';

/**
 * Whether `error`, or an error it wraps, is an OutcomeUnknownError. Prisma keeps only the
 * message of an error thrown under a statement outside a transaction ($queryRaw): it is known
 * by its words there.
 */
export function isOutcomeUnknown(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof OutcomeUnknownError) return true;
    const message = String((current as { message?: unknown }).message ?? '');
    if (message.endsWith(SYNC_WAIT_CUT) || message.endsWith(ANSWER_LOST)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

// The WARNING (SQLSTATE 01000) Postgres sends with a COMMIT whose synchronous wait was cancelled
// (pg_cancel_backend, statement_timeout) or cut short by a shutdown; the COMMIT still succeeds.
const SYNC_WAIT_CANCELLED = /canceling (the )?wait for synchronous replication/i;
// Statements outside a transaction that write nothing (or not only on success): their lost
// answer is an outage, not an unknown outcome. Any other lone statement commits as it runs.
const NOT_A_COMMIT =
  /^\s*(select|show|set|reset|begin|start|rollback|abort|listen|unlisten|discard|deallocate|savepoint|release)\b/i;
const COMMIT = /^\s*(commit|end)\b/i;
// A lone WITH writes only if one of its parts does; `FOR UPDATE` in a read counts too (erring
// toward an unknown outcome is safe, the other way is not).
const WITH = /^\s*with\b/i;
const WRITES = /\b(insert|update|delete|merge)\b/i;

/** Whether `text`, run outside a transaction, commits what it does as it runs. */
function commitsAlone(text: string): boolean {
  if (NOT_A_COMMIT.test(text)) return false;
  return !WITH.test(text) || WRITES.test(text);
}

/**
 * A `pg` client class whose statements that commit (a COMMIT, a lone write) reject with
 * OutcomeUnknownError instead of answering as done when their outcome is unknown.
 */
export function outcomeCheckingClient(Base: typeof pg.Client): typeof pg.Client {
  return class OutcomeCheckingClient extends Base {
    private syncWaitCancelled = false;

    constructor(...args: ConstructorParameters<typeof pg.Client>) {
      super(...args);
      this.on('notice', (notice) => {
        if (SYNC_WAIT_CANCELLED.test(notice.message ?? '')) this.syncWaitCancelled = true;
      });
    }

    // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this passes every one on.
    override query(config: any, values?: any, callback?: any): any {
      if (typeof config?.submit === 'function') return super.query(config, values, callback);
      const done = typeof values === 'function' ? values : callback;
      const text: string = typeof config === 'string' ? config : (config?.text ?? '');
      const commits = COMMIT.test(text) || (this.inTransaction() === false && commitsAlone(text));
      this.syncWaitCancelled = false;
      const answer = (
        super.query(config, typeof values === 'function' ? undefined : values) as Promise<unknown>
      ).then(
        (result) => {
          if (!this.syncWaitCancelled) return result;
          this.syncWaitCancelled = false;
          throw new OutcomeUnknownError(SYNC_WAIT_CUT);
        },
        (error: unknown) => {
          if (commits && !refusedByDatabase(error)) {
            throw new OutcomeUnknownError(ANSWER_LOST, { cause: error });
          }
          throw error;
        },
      );
      if (!done) return answer;
      answer.then(
        (result) => done(null, result),
        (error: unknown) => done(error),
      );
    }

    /** From the server's last ReadyForQuery; undefined before the first. */
    private inTransaction(): boolean | undefined {
      const status = (this as unknown as { _txStatus?: string | null })._txStatus;
      return status ? status !== 'I' : undefined;
    }
  };
}

/** An ERROR answer: the statement (and its transaction) was rolled back, nothing kept. */
function refusedByDatabase(error: unknown): boolean {
  return error instanceof pg.DatabaseError && error.severity === 'ERROR';
}
