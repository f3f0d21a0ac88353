import type { TransactionClient } from '@tablelock/db';

/** Which of tablelock's own writes a transaction is: what its change sets are recorded as. */
export type OwnWriteKind = 'save' | 'import' | 'revert';

export interface OwnWrite {
  tableName: string;
  token: string;
  kind: OwnWriteKind;
  /** For a revert: the change set it undoes. */
  revertsChangeSetId?: string | null;
}

/**
 * Shows the write guard's triggers, inside the writing transaction, that tablelock writes
 * `tableName` under its lock (`tablelock.use_lock`) and what kind of write it is. use_lock
 * refuses a token that is not current (SQLSTATE TL001); fencedSave has checked it already.
 * The kind is a label only tablelock's own database role may set (`tablelock.label_write`):
 * another login holding a token is kept as a locked write, never as tablelock's save.
 */
export async function declareOwnWrite(tx: TransactionClient, write: OwnWrite): Promise<void> {
  await tx.$executeRaw`
    SELECT tablelock.use_lock(${write.tableName}, ${write.token}),
           tablelock.label_write(${write.tableName}, ${write.kind},
                                 ${write.revertsChangeSetId ?? null}::bigint)`;
}

/** A pending change request's write: its approval's application, or (no approver) its trial. */
export interface RequestWrite {
  changeRequestId: string;
  /** The request's table. */
  tableName: string;
  /** Null for a trial, which the caller rolls back. */
  approvedBy: string | null;
  kind: OwnWriteKind;
}

/**
 * Shows the write guard's triggers that this transaction writes a pending change request:
 * on a table that needs approval, or whose lock waits with a request, the only writes they let
 * through (use_lock refuses the request's token, TL004). `tablelock.write_change_request`
 * checks that the request is pending under the table's current lock (TL001 otherwise); only
 * tablelock's own database role may call it, so no other login can pass its write off as one.
 */
export async function declareRequestWrite(
  tx: TransactionClient,
  write: RequestWrite,
): Promise<void> {
  await tx.$executeRaw`
    SELECT tablelock.write_change_request(${write.changeRequestId}::bigint, ${write.approvedBy}),
           tablelock.label_write(${write.tableName}, ${write.kind}, NULL)`;
}

/** The id of this transaction's change set of `tableName`; null when nothing was recorded. */
export async function currentChangeSetId(
  tx: TransactionClient,
  tableName: string,
): Promise<string | null> {
  const [row] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM tablelock.change_set
    WHERE txid = pg_current_xact_id() AND table_name = ${tableName}`;
  return row?.id ?? null;
}
