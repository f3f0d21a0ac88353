import type { Queryable, TransactionClient } from '@tablelock/db';
import { LockError } from '../core/lockError';
import type { TakeOverPolicy, TakeOverRule } from '../core/takeOverRule';
import { readLockSettingsRow } from './lockSettingsRow';

/**
 * The take-over rule (see TakeOverRule; `own_sessions` is the default, and the rule before it
 * could be chosen), and who set it when.
 */
export interface TakeOverSettings extends TakeOverPolicy {
  updatedAt: Date;
  updatedBy: string | null;
}

const IDLE_MINUTES = { min: 1, max: 1440 };

export async function readTakeOverSettings(db: Queryable): Promise<TakeOverSettings> {
  const settings = await readLockSettingsRow(db);
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
