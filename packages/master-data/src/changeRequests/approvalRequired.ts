import type { TransactionClient } from '@tablelock/db';
import { MasterDataError } from '../masterDataError';

/** The approved change request a fenced save applies: the one write a table needing approval takes. */
export interface ApprovedRequest {
  changeRequestId: string;
  approvedBy: string;
}

/**
 * APPROVAL_REQUIRED unless `tableName`'s policy lets changes through without approval, or the
 * write applies an approved request. Read in the writing transaction, after the lock's row is
 * share-locked, so a policy changed before the write commits is the one obeyed.
 */
export async function assertApprovalGiven(
  tx: TransactionClient,
  tableName: string,
  approval: ApprovedRequest | undefined,
): Promise<void> {
  if (approval) return;
  const [policy] = await tx.$queryRaw<{ needed: boolean }[]>`
    SELECT changes_need_approval AS needed FROM tablelock.table_policy
    WHERE table_name = ${tableName}`;
  if (policy?.needed) {
    throw new MasterDataError(
      'APPROVAL_REQUIRED',
      `Changes to ${tableName} need another person's approval: submit them as a change request.`,
    );
  }
}
