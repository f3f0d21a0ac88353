import type { Queryable, TransactionClient } from '@tablelock/db';
import { policyBlockOf } from '../core/editBlock';
import { LockError } from '../core/lockError';
import type { EditorRights, TableRules } from '../core/tableRules';
import type { TakeOverRule } from '../core/takeOverRule';

/**
 * Who may take over someone's lock besides admins: `admins_only` nobody; `own_sessions` (the
 * default, and the rule before it could be chosen) the holder from another tab or device;
 * `idle_holder` also any editor once the holder has been idle `idleMinutes`.
 */
export interface TakeOverSettings {
  rule: TakeOverRule;
  idleMinutes: number;
  updatedAt: Date;
  updatedBy: string | null;
}

const IDLE_MINUTES = { min: 1, max: 1440 };

export async function readTakeOverSettings(db: Queryable): Promise<TakeOverSettings> {
  const settings = await db.lockSettings.findUniqueOrThrow({ where: { id: true } });
  return takeOverSettingsOf(settings);
}

/** Sets the rule (in the caller's transaction, with its audit record). */
export async function setTakeOverRule(
  tx: TransactionClient,
  request: { rule: TakeOverRule; idleMinutes?: number | null; actor: string },
): Promise<TakeOverSettings> {
  const minutes = request.idleMinutes ?? undefined;
  if (
    minutes !== undefined &&
    (!Number.isInteger(minutes) || minutes < IDLE_MINUTES.min || minutes > IDLE_MINUTES.max)
  ) {
    throw new LockError(
      'BAD_USER_INPUT',
      `idleMinutes must be a whole number from ${IDLE_MINUTES.min} to ${IDLE_MINUTES.max}.`,
    );
  }
  const settings = await tx.lockSettings.update({
    where: { id: true },
    data: {
      takeOverRule: request.rule,
      ...(minutes !== undefined ? { takeOverIdleMinutes: minutes } : {}),
      updatedBy: request.actor,
      updatedAt: new Date(),
    },
  });
  return takeOverSettingsOf(settings);
}

/**
 * What the rule lets `caller` do (see the takeOver intent): admins take anyone's lock; others
 * their own unless `admins_only`, and an idle holder's under `idle_holder`.
 */
export function takeOverPermission(
  settings: Pick<TakeOverSettings, 'rule' | 'idleMinutes'>,
  isAdmin: boolean,
): { anyHolder: boolean; ownLock: boolean; idleHolderSeconds: number | null } {
  return {
    anyHolder: isAdmin,
    ownLock: settings.rule !== 'admins_only',
    idleHolderSeconds: settings.rule === 'idle_holder' ? settings.idleMinutes * 60 : null,
  };
}

/** The take-over rule of the settings row, read already. */
export function takeOverSettingsOf(row: {
  takeOverRule: TakeOverRule;
  takeOverIdleMinutes: number;
  updatedAt: Date;
  updatedBy: string | null;
}): TakeOverSettings {
  return {
    rule: row.takeOverRule,
    idleMinutes: row.takeOverIdleMinutes,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
  };
}

/**
 * Whether `caller` may take over `table`'s lock now, for offering the button: the rule the
 * state machine applies, judged here on the app's clock (the take-over itself is judged on
 * the database's).
 */
export function mayTakeOver(
  table: {
    name: string;
    status: string;
    editor: string | null;
    lastActiveAt: Date | null;
    rules: TableRules;
    takeOver: Pick<TakeOverSettings, 'rule' | 'idleMinutes'>;
  },
  caller: { name: string; rights: EditorRights },
  now: Date,
): boolean {
  if (table.status !== 'editing' || caller.rights.role === 'viewer') return false;
  const permission = takeOverPermission(table.takeOver, caller.rights.role === 'admin');
  if (permission.anyHolder) return true;
  if (table.editor === caller.name) return permission.ownLock;
  if (permission.idleHolderSeconds === null || !table.lastActiveAt) return false;
  const idleSeconds = (now.getTime() - table.lastActiveAt.getTime()) / 1000;
  return (
    idleSeconds >= permission.idleHolderSeconds &&
    policyBlockOf({ tableName: table.name, rules: table.rules }, caller.rights) === null
  );
}
