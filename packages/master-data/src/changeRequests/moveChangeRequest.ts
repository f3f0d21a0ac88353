import { inTransaction, type Queryable } from '@tablelock/db';
import { recordLockEvent } from '@tablelock/lock';
import { MasterDataError } from '../masterDataError';
import { type ChangeRequestRecord, changeRequestOf } from './changeRequestRecord';
import { type RequestActor, sharesPeople } from './core/approverRules';
import { validEffectiveAt } from './effectiveTime';

export interface MoveRequest {
  id: string;
  effectiveAt: Date;
  actor: RequestActor;
}

/**
 * Moves a request with an effective time to another time, for its author only, while it still
 * waits (pending approval, or scheduled): in one transaction that holds the request's row, so
 * a move and the scheduler's application never both happen. BAD_USER_INPUT for a request that
 * was never scheduled or is no longer waiting (applied, failed, ...), or a time not to come.
 */
export async function moveChangeRequest(
  db: Queryable,
  move: MoveRequest,
): Promise<ChangeRequestRecord> {
  if (!/^\d{1,18}$/.test(move.id)) {
    throw new MasterDataError('NOT_FOUND', 'No change request has that id.');
  }
  return inTransaction(db, async (tx) => {
    const [row] = await tx.$queryRaw<{ id: bigint; now: Date }[]>`
      SELECT id, clock_timestamp() AS now FROM tablelock.change_request
      WHERE id = ${move.id}::bigint FOR UPDATE`;
    if (!row) throw new MasterDataError('NOT_FOUND', 'No change request has that id.');
    const current = changeRequestOf(
      await tx.changeRequest.findUniqueOrThrow({ where: { id: row.id } }),
    );
    if (!current.effectiveAt) {
      throw new MasterDataError(
        'BAD_USER_INPUT',
        'This change request takes effect at its approval: only a scheduled one moves.',
      );
    }
    if (current.editionId) {
      throw new MasterDataError(
        'BAD_USER_INPUT',
        `This change request takes effect with edition ${current.editionId}, at its time.`,
      );
    }
    if (current.state !== 'scheduled' && current.state !== 'pending') {
      throw new MasterDataError(
        'BAD_USER_INPUT',
        `This change request is ${current.state}: only a request still waiting for its time moves.`,
        { state: current.state },
      );
    }
    if (!sharesPeople(move.actor, [current.author])) {
      throw new MasterDataError('FORBIDDEN', 'Only its author moves a change request.');
    }
    const effectiveAt = validEffectiveAt(move.effectiveAt, row.now);
    const stored = await tx.changeRequest.update({ where: { id: row.id }, data: { effectiveAt } });
    await recordLockEvent(tx, {
      action: 'request_moved',
      tableName: current.tableName,
      actor: move.actor.name,
      editor: current.author,
      token: current.token,
      details: {
        changeRequestId: current.id,
        from: current.effectiveAt.toISOString(),
        effectiveAt: effectiveAt.toISOString(),
      },
    });
    return changeRequestOf(stored);
  });
}
