import type { TransactionClient } from '@tablelock/db';
import type { ChangeRequestRow } from '../changeRequests/changeRequestRecord';
import { MasterDataError } from '../masterDataError';

/**
 * The time a request submitted to edition `editionId` takes effect: the edition's, while it is
 * still scheduled (held for share until the submission commits, so that it is not applied
 * meanwhile). BAD_USER_INPUT for an edition that no longer waits, a different time asked for,
 * or rows of `tableName` that another request of the edition changes too: an edition applies
 * each row once, or its requests' order would decide the outcome.
 */
export async function joinEdition(
  tx: TransactionClient,
  editionId: string,
  tableName: string,
  rows: readonly ChangeRequestRow[],
  effectiveAt: Date | null,
): Promise<Date> {
  if (!/^\d{1,18}$/.test(editionId)) {
    throw new MasterDataError('NOT_FOUND', 'No edition has that id.');
  }
  const [edition] = await tx.$queryRaw<{ state: string; effectiveAt: Date }[]>`
    SELECT state::text AS state, effective_at AS "effectiveAt" FROM tablelock.edition
    WHERE id = ${editionId}::bigint FOR SHARE`;
  if (!edition) throw new MasterDataError('NOT_FOUND', 'No edition has that id.');
  if (edition.state !== 'scheduled') {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `Edition ${editionId} is ${edition.state}: requests join an edition still waiting for its time.`,
    );
  }
  if (effectiveAt && effectiveAt.getTime() !== edition.effectiveAt.getTime()) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `A request of edition ${editionId} takes effect at its time, ${edition.effectiveAt.toISOString()}: leave effectiveAt out.`,
    );
  }
  const others = await tx.changeRequest.findMany({
    where: {
      editionId: BigInt(editionId),
      tableName,
      state: { in: ['pending', 'scheduled'] },
    },
    select: { id: true, rows: true },
  });
  const mine = new Set(rows.map(keyText).filter((key) => key !== null));
  for (const other of others) {
    const shared = (other.rows as unknown as ChangeRequestRow[])
      .map(keyText)
      .find((key) => key !== null && mine.has(key));
    if (shared) {
      throw new MasterDataError(
        'BAD_USER_INPUT',
        `Change request ${other.id} of edition ${editionId} changes the row ${shared} of ${tableName} too: an edition changes each row once; nothing was submitted.`,
        { changeRequestId: other.id.toString(), key: shared },
      );
    }
  }
  return edition.effectiveAt;
}

/** A row's key as one text, its columns in name order and its values as text; null: none. */
function keyText(row: ChangeRequestRow): string | null {
  if (!row.key) return null;
  const entries = Object.entries(row.key)
    .map(([name, value]) => [name, value === null ? null : String(value)] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0 ? null : JSON.stringify(Object.fromEntries(entries));
}
