import { inTransaction, type Queryable, type TransactionClient } from '@tablelock/db';
import { handLockBack, recordLockEvent, releaseTableLock } from '@tablelock/lock';
import { fencedSave } from '../fencedSave';
import { applyImport } from '../import/applyImport';
import { MasterDataError } from '../masterDataError';
import { applyChanges, type RowError } from '../saveRows';
import { readMasterTable } from '../tableColumns';
import { approverRulesOf } from './approverRulesOf';
import {
  type ChangedRequestRow,
  type ChangeRequestRecord,
  changeRequestOf,
} from './changeRequestRecord';
import type { RequestActor } from './core/approverRules';
import type { ChangeRequestState } from './core/changeRequestState';
import { planRequestStep } from './core/planRequestStep';
import { validComment } from './submitChangeRequest';

/** What a person does to a pending request. */
export type RequestDecision = 'approve' | 'reject' | 'sendBack' | 'withdraw';

export interface DecideRequest {
  schema: string;
  id: string;
  decision: RequestDecision;
  actor: RequestActor;
  comment: string | null;
}

/** How long a lock handed back to the author lasts before its first renewal. */
export const HANDED_BACK_LEASE_SECONDS = 300;

const ACTION = {
  approve: 'request_approved',
  reject: 'request_rejected',
  sendBack: 'request_sent_back',
  withdraw: 'request_withdrawn',
} as const;

/**
 * Approves, rejects, sends back or withdraws a pending change request, as the request's state
 * machine allows (planRequestStep), in one transaction that holds the request's row: of two
 * approvers at once, the second finds it closed (CHANGE_REQUEST_CLOSED). Approving applies the
 * whole request through the fenced save, under the request's token, and then releases the
 * lock (or hands it back to the author, if they asked). If a row changed since submission, or
 * no longer saves against today's data, nothing is written: the request goes back to its
 * author, and the approval is refused with CHANGE_REQUEST_ROWS_CHANGED naming those rows.
 * Rejecting releases the lock; sending back and withdrawing hand it back to the author.
 * A request with an effective time carries no lock: approving it schedules it, and the other
 * decisions (withdrawing and rejecting it until its time, too) close it, touching no lock.
 */
export async function decideChangeRequest(
  db: Queryable,
  request: DecideRequest,
): Promise<ChangeRequestRecord> {
  const comment = validComment(request.comment);
  if ((request.decision === 'reject' || request.decision === 'sendBack') && comment === null) {
    throw new MasterDataError('BAD_USER_INPUT', 'Say why in a comment.');
  }
  const outcome = await inTransaction(db, async (tx) => {
    const current = await lockedRequest(tx, request.id);
    const rules = await approverRulesOf(tx, current.tableName);
    const plan = planRequestStep(current, { kind: request.decision, actor: request.actor }, rules);
    if (!plan.allowed) {
      throw new MasterDataError(plan.code, plan.message, { state: current.state });
    }
    // A request with an effective time is only scheduled by its approval: the scheduler
    // applies it at that time.
    if (request.decision !== 'approve' || current.effectiveAt) {
      return { request: await close(tx, current, plan.next, request, comment), changed: null };
    }
    const changed = await apply(tx, request.schema, current, request.actor.name);
    if (changed.length === 0) {
      return { request: await close(tx, current, 'applied', request, comment), changed: null };
    }
    const sentBack = await close(tx, current, 'sentBack', request, comment, changed);
    return { request: sentBack, changed };
  });
  if (outcome.changed) {
    throw new MasterDataError(
      'CHANGE_REQUEST_ROWS_CHANGED',
      `Rows of this change request changed since it was submitted: ${outcome.changed
        .map((row) => `${JSON.stringify(row.key)} (${row.message})`)
        .join('; ')}. Nothing was written; the request went back to ${outcome.request.author}.`,
      { rows: outcome.changed, state: outcome.request.state },
    );
  }
  return outcome.request;
}

async function lockedRequest(tx: TransactionClient, id: string): Promise<ChangeRequestRecord> {
  if (!/^\d{1,18}$/.test(id))
    throw new MasterDataError('NOT_FOUND', 'No change request has that id.');
  const [locked] = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT id FROM tablelock.change_request WHERE id = ${id}::bigint FOR UPDATE`;
  if (!locked) throw new MasterDataError('NOT_FOUND', 'No change request has that id.');
  return changeRequestOf(await tx.changeRequest.findUniqueOrThrow({ where: { id: locked.id } }));
}

/** Writes the request through the fenced save; the rows that kept it from saving. */
async function apply(
  tx: TransactionClient,
  schema: string,
  request: ChangeRequestRecord,
  approvedBy: string,
): Promise<ChangedRequestRow[]> {
  const approval = { changeRequestId: request.id, approvedBy };
  if (request.importDryRunId)
    return applyDryRun(tx, schema, request, request.importDryRunId, approval);
  const table = await readMasterTable(tx, schema, request.tableName);
  const result = await fencedSave(
    tx,
    {
      tableName: request.tableName,
      holder: request.author,
      token: request.token,
      reason: `change request ${request.id}`,
      approval,
    },
    (inner) => applyChanges(inner, table, request.changes),
  );
  return result.rowErrors.map((error) => changedRow(request, error));
}

/** Applies the request's import dry run; the file rows that changed since, if any did. */
async function applyDryRun(
  tx: TransactionClient,
  schema: string,
  request: ChangeRequestRecord,
  dryRunId: string,
  approval: { changeRequestId: string; approvedBy: string },
): Promise<ChangedRequestRow[]> {
  try {
    await applyImport(tx, {
      schema,
      id: dryRunId,
      holder: request.author,
      token: request.token,
      approval,
    });
    return [];
  } catch (error) {
    if (!(error instanceof MasterDataError)) throw error;
    if (error.code !== 'IMPORT_ROWS_CHANGED' && error.code !== 'IMPORT_REJECTED') throw error;
    const rows = (error.details.rows as { key: ChangedRequestRow['key'] }[] | undefined) ?? [
      { key: null },
    ];
    return rows.map(({ key }) => ({
      action: 'update',
      key,
      code: error.code,
      message: error.message,
    }));
  }
}

function changedRow(request: ChangeRequestRecord, error: RowError): ChangedRequestRow {
  const list =
    error.change === 'insert'
      ? request.changes.inserts
      : error.change === 'update'
        ? request.changes.updates
        : request.changes.deletes;
  const row = list?.[error.index];
  const key = row && 'key' in row ? row.key : (row?.values ?? null);
  return { action: error.change, key, code: error.code, message: error.message };
}

/** Closes the request as `state`, records the step, and releases or hands back the lock. */
async function close(
  tx: TransactionClient,
  request: ChangeRequestRecord,
  state: ChangeRequestState,
  decision: DecideRequest,
  comment: string | null,
  changedRows: ChangedRequestRow[] | null = null,
): Promise<ChangeRequestRecord> {
  const changeSetId =
    state === 'applied'
      ? ((
          await tx.changeSet.findFirst({
            where: { changeRequestId: BigInt(request.id) },
            select: { id: true },
          })
        )?.id ?? null)
      : null;
  const stored = await tx.changeRequest.update({
    where: { id: BigInt(request.id) },
    data: {
      state,
      decidedBy: decision.actor.name,
      decidedAt: new Date(),
      decisionComment: comment,
      ...(changedRows ? { changedRows: changedRows as object[] } : {}),
      changeSetId,
    },
  });
  await recordLockEvent(tx, {
    action: state === 'sentBack' ? 'request_sent_back' : ACTION[decision.decision],
    tableName: request.tableName,
    actor: decision.actor.name,
    editor: request.author,
    token: request.token,
    reason: comment ?? (changedRows ? 'rows changed since submission' : null),
    rowsChanged: state === 'applied' ? request.rowCount : null,
    details: { changeRequestId: request.id, state },
  });
  if (state === 'scheduled') {
    await recordLockEvent(tx, {
      action: 'request_scheduled',
      tableName: request.tableName,
      actor: decision.actor.name,
      editor: request.author,
      token: request.token,
      details: { changeRequestId: request.id, effectiveAt: request.effectiveAt?.toISOString() },
    });
  }
  if (request.effectiveAt) return changeRequestOf(stored);
  const release = state === 'rejected' || (state === 'applied' && !request.keepEditing);
  if (release) {
    const released = await releaseTableLock(tx, {
      tableName: request.tableName,
      editor: request.author,
      token: request.token,
      actor: decision.actor.name,
      reason: `change request ${request.id} ${state}`,
    });
    if ('refused' in released) {
      throw new Error(
        `the lock of change request ${request.id} was not released: ${released.refused.kind}`,
      );
    }
  } else {
    await handLockBack(tx, request.tableName, request.token, HANDED_BACK_LEASE_SECONDS);
  }
  return changeRequestOf(stored);
}
