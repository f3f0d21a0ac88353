import type { TransactionClient } from '@tablelock/db';
import { MasterDataError } from '../masterDataError';

/**
 * The time a request submitted to edition `editionId` takes effect: the edition's, while it is
 * still scheduled (held for share until the submission commits, so that it is not applied
 * meanwhile). BAD_USER_INPUT for an edition that no longer waits, or a different time asked
 * for. Its rows are checked once stored (assertRowsOnceInEdition).
 */
export async function joinEdition(
  tx: TransactionClient,
  editionId: string,
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
  return edition.effectiveAt;
}
