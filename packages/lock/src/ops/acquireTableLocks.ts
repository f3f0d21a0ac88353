import { inTransaction, type Queryable } from '@tablelock/db';
import type { LockAnswer } from '../core/lockAnswer';
import { LockError } from '../core/lockError';
import type { LockIntent } from '../core/lockIntent';
import type { LockRefusal } from '../core/lockRefusal';
import { type AcquireTableLock, acquireTableLock, withHolderEditors } from './acquireTableLock';
import { changeTableLock, recordDenial } from './changeTableLock';
import { type LockGrant, lockGrantOf } from './lockGrant';

/** As AcquireTableLock, for every one of `tableNames`. */
export type AcquireTableLocks = Omit<AcquireTableLock, 'tableName'> & { tableNames: string[] };

/** How many tables one request may take together. */
export const MAX_TABLES_AT_ONCE = 50;

/** A refusal that rolls back the acquisitions made before it. */
class Refused extends Error {
  constructor(
    readonly intent: LockIntent,
    readonly refusal: LockRefusal,
  ) {
    super('refused');
  }
}

/**
 * Starts editing every one of the tables, each with its own fencing token, all or nothing: in
 * one transaction, in name order (the order every lock change takes rows in). A table's FK
 * targets among them are edited, not also locked for it. Never waits in line: if anyone is in
 * the way of any table it is refused at once, naming them, and nothing is taken.
 */
export async function acquireTableLocks(
  db: Queryable,
  request: AcquireTableLocks,
): Promise<LockAnswer<LockGrant[]>> {
  const tableNames = requireTableNames(request.tableNames);
  const [only] = tableNames;
  if (only !== undefined && tableNames.length === 1) {
    const answer = await acquireTableLock(db, { ...request, tableName: only });
    return 'granted' in answer ? { granted: [answer.granted] } : answer;
  }
  const actor = request.actor ?? request.editor;
  try {
    const grants = await inTransaction(db, async (tx) => {
      const granted: LockGrant[] = [];
      for (const tableName of tableNames) {
        const intent: LockIntent = {
          kind: 'acquire',
          tableName,
          namedFkTables: [],
          editor: request.editor,
          leaseSeconds: request.leaseSeconds,
          coEdited: tableNames.filter((name) => name !== tableName),
          ...(request.waiterId ? { waiterId: request.waiterId } : {}),
          ...(request.rights ? { rights: request.rights } : {}),
        };
        const result = await changeTableLock(tx, intent, {
          actor,
          recordDenial: false,
          waitForRows: request.waitForRows ?? false,
        });
        if (!result.written) throw new Refused(intent, result.refusal);
        granted.push(lockGrantOf(result, tableName));
      }
      return granted;
    });
    return { granted: grants };
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    if (request.recordDenial !== false) await recordDenial(db, error.intent, actor, error.refusal);
    return {
      refused: await withHolderEditors(db, error.refusal),
      tableName: error.intent.tableName,
    };
  }
}

function requireTableNames(tableNames: string[]): string[] {
  const names = [...new Set(tableNames)].sort();
  if (names.length === 0 || names.length > MAX_TABLES_AT_ONCE) {
    throw new LockError(
      'BAD_USER_INPUT',
      `Name from 1 to ${MAX_TABLES_AT_ONCE} tables to take together.`,
    );
  }
  return names;
}
