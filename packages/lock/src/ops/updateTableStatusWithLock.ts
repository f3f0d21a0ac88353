import type { PrismaClient } from '@tablelock/db';
import { DEFAULT_LEASE_SECONDS } from '../core/lease';
import { LockError } from '../core/lockError';
import type { LockIntent } from '../core/lockIntent';
import type { LockRow } from '../core/lockRow';
import { fkTablesOf } from '../core/planLockChange';
import type { EditorRights } from '../core/tableRules';
import type { TableStatus } from '../core/tableStatus';
import { changeTableLock } from './changeTableLock';
import { parseLockRequest, type TableStatusChange } from './lockRequest';

export interface FkTableStatus {
  tableName: string;
  currentStatus: TableStatus;
}

export interface LockOutcome {
  /** True if every condition held and the change was made; false if nothing changed. */
  lockResult: boolean;
  currentStatus: TableStatus;
  fkCurrentStatus: FkTableStatus[];
}

/**
 * The legacy contract's `UpdateTableStatusWithLock`: moves a table and its FK tables all or nothing, like
 * the legacy system's transaction of conditional writes. Never waits on a database lock: a contended
 * call loses at once (`lockResult: false`, recorded as a denied attempt). Acquisitions get the
 * default lease. Refusals that no retry can fix (bad input, unknown table, impossible
 * transition, releasing someone else's lock) throw a LockError. `actor` is who asks, when not
 * the editor itself (an admin key acting for a user); `rights` are the caller's role and groups,
 * for the table's policy of who may edit. A table's policy or freeze refusing an acquisition is
 * `lockResult: false`, like anyone in the way. A lock that waits with a change request ends by
 * its decision or an admin's force release; the legacy contract has no way to say either, so
 * finishing it loses like a busy table (`lockResult: false`, still `editing`, not recorded).
 */
export async function updateTableStatusWithLock(
  prisma: PrismaClient,
  change: TableStatusChange,
  actor?: string,
  rights?: EditorRights,
): Promise<LockOutcome> {
  const legacy = parseLockRequest(change);
  const { kind, ...request } = legacy;
  const intent: LockIntent =
    kind === 'acquire'
      ? { kind, ...request, leaseSeconds: DEFAULT_LEASE_SECONDS, ...(rights ? { rights } : {}) }
      : { kind, ...request };
  const asker = actor ?? legacy.editor;
  const result = await changeTableLock(prisma, intent, {
    actor: asker,
    sparesChangeRequests: kind === 'release',
  });
  if (!result.written && result.refusal.kind === 'changeRequestPending') {
    return { lockResult: false, currentStatus: 'editing', fkCurrentStatus: [] };
  }
  return outcome(result.written, intent, result.rows);
}

function outcome(
  lockResult: boolean,
  intent: LockIntent,
  rows: ReadonlyMap<string, LockRow>,
): LockOutcome {
  const main = rows.get(intent.tableName);
  if (!main)
    throw new LockError('TABLE_NOT_FOUND', `No master table is named ${intent.tableName}.`);
  return {
    lockResult,
    currentStatus: legacyStatusOf(main),
    fkCurrentStatus: fkTablesOf(intent, main).flatMap((name) => {
      const row = rows.get(name);
      return row ? [{ tableName: name, currentStatus: legacyStatusOf(row) }] : [];
    }),
  };
}

/**
 * What the legacy contract says of a table: a table edited in row scopes (which the contract
 * cannot name) is `editing`, never `normal` (docs/decisions/0021).
 */
function legacyStatusOf(row: LockRow): TableStatus {
  return row.status === 'normal' && (row.rowScopes ?? []).length > 0 ? 'editing' : row.status;
}
