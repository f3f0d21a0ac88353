import { policyBlockOf } from './editBlock';
import { holderRefusal } from './holderRefusal';
import { policyErrorCode } from './lockAnswer';
import { LockError } from './lockError';
import { describeLockRefusal } from './lockRefusal';
import type { LockRow } from './lockRow';
import type { EditorRights, TableRules } from './tableRules';
import type { TableStatus } from './tableStatus';

/**
 * Who may take over someone's lock besides admins: `admins_only` nobody; `own_sessions` (the
 * default) the holder from another tab or device; `idle_holder` also any editor once the holder
 * has been idle long enough. The domain's own: the database's enum follows it.
 */
export const TakeOverRule = {
  admins_only: 'admins_only',
  own_sessions: 'own_sessions',
  idle_holder: 'idle_holder',
} as const;

export type TakeOverRule = (typeof TakeOverRule)[keyof typeof TakeOverRule];

/** The rule as admins set it, the same for every table. */
export interface TakeOverPolicy {
  rule: TakeOverRule;
  /** Under `idle_holder`: how long the holder must have been idle. */
  idleMinutes: number;
}

/**
 * What the rule lets one taker do (the takeOver intent carries it): `anyHolder` (admins) take
 * anyone's lock, even of a frozen table; others their own lock unless `ownLock` is false (default
 * true), and someone else's once its holder has been idle `idleHolderSeconds` (null, the default:
 * never).
 */
export interface TakeOverPermission {
  anyHolder: boolean;
  ownLock?: boolean;
  idleHolderSeconds?: number | null;
}

/** What the rule lets a taker do: admins take anyone's lock; others as the policy says. */
export function takeOverPermission(
  policy: TakeOverPolicy,
  isAdmin: boolean,
): Required<TakeOverPermission> {
  return {
    anyHolder: isAdmin,
    ownLock: policy.rule !== 'admins_only',
    idleHolderSeconds: policy.rule === 'idle_holder' ? policy.idleMinutes * 60 : null,
  };
}

/**
 * The take-over rule, decided once: for the take-over itself (planLockChange) and for offering
 * it (mayTakeOver), both on the lock's row as read with the database's clock (`idleSeconds`).
 * Admins take anyone's lock; others, never one that waits with a change request, their own
 * (unless `ownLock` is false) while the holder may still go on, or someone else's whose holder has been idle long enough, on a table they may
 * start editing. Null when allowed, else why not.
 */
export function takeOverRefusal(
  lock: Pick<LockRow, 'tableName' | 'editor' | 'rules' | 'idleSeconds' | 'carriesChangeRequest'>,
  taker: { editor: string; rights?: EditorRights | undefined },
  permission: TakeOverPermission,
): LockError | null {
  if (permission.anyHolder) return null;
  // A take-over rejects the request the lock waits with: an admin's decision, with a reason its
  // author reads as the rejection's comment, never an editor's way around an approver.
  if (lock.carriesChangeRequest) {
    return new LockError(
      'FORBIDDEN',
      `${lock.tableName} waits with ${lock.editor}'s change request for approval; only an admin can take it over.`,
    );
  }
  if (lock.editor === taker.editor) {
    if (permission.ownLock === false) {
      return new LockError(
        'FORBIDDEN',
        `Only an admin can take over a lock on ${lock.tableName}, even your own.`,
      );
    }
    return holderRefusal(lock, taker.rights);
  }
  const idleLimit = permission.idleHolderSeconds ?? null;
  if (idleLimit === null) {
    return new LockError(
      'FORBIDDEN',
      `${lock.tableName} is being edited by ${lock.editor}; only an admin can take it over.`,
    );
  }
  if ((lock.idleSeconds ?? 0) < idleLimit) {
    return new LockError(
      'FORBIDDEN',
      `${lock.tableName} is being edited by ${lock.editor}, active within the last ${Math.round(idleLimit / 60)} minutes; only an admin can take it over now.`,
    );
  }
  const block = policyBlockOf(lock, taker.rights);
  if (block) {
    return new LockError(
      policyErrorCode(block.kind) ?? 'FORBIDDEN',
      `${describeLockRefusal(lock.tableName, block)}.`,
    );
  }
  return null;
}

/**
 * Whether `caller` may take over `table`'s lock now, for offering it: the rule the take-over is
 * decided by, on the same clock, so an offer is not then refused. Viewers never may.
 */
export function mayTakeOver(
  table: {
    name: string;
    status: TableStatus;
    editor: string | null;
    idleSeconds: number | null;
    rules: TableRules;
    takeOver: TakeOverPolicy;
    carriesChangeRequest: boolean;
  },
  caller: { name: string; rights: EditorRights },
): boolean {
  if (table.status !== 'editing' || caller.rights.role === 'viewer') return false;
  const lock = {
    tableName: table.name,
    editor: table.editor,
    rules: table.rules,
    idleSeconds: table.idleSeconds,
    carriesChangeRequest: table.carriesChangeRequest,
  };
  const permission = takeOverPermission(table.takeOver, caller.rights.role === 'admin');
  return takeOverRefusal(lock, { editor: caller.name, rights: caller.rights }, permission) === null;
}
