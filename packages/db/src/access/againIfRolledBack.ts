import { postgresErrorCode } from './postgresErrorCode';

/**
 * Postgres rolled the transaction back whole and asks for it to be tried again: a deadlock's
 * victim (40P01) or the loser of a serialization race (40001).
 */
const TRY_AGAIN_CODES = new Set(['40P01', '40001']);

/**
 * Runs `work` (a transaction, or statements that are one), and again, up to `tries` times in
 * all, when Postgres rolled it back as a deadlock's victim or a serialization race's loser:
 * nothing of it is left, and by then the other transaction has what it waited for. Any other
 * error, or the last try's, is thrown.
 */
export async function againIfRolledBack<T>(tries: number, work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= tries || !TRY_AGAIN_CODES.has(postgresErrorCode(error) ?? '')) throw error;
    }
  }
}
