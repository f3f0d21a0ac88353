import { inTransaction, type Queryable } from '@tablelock/db';
import { validEffectiveAt } from '../changeRequests/effectiveTime';
import { MasterDataError } from '../masterDataError';
import { type EditionRecord, editionOf } from './editionRecord';

const MAX_NAME = 200;

/**
 * A new edition, `scheduled` for `effectiveAt` (after now, within five years: BAD_USER_INPUT
 * otherwise), to which change requests are then submitted (`editionId`).
 */
export async function createEdition(
  db: Queryable,
  edition: { name: string; effectiveAt: Date; createdBy: string },
): Promise<EditionRecord> {
  const name = edition.name.trim();
  if (name === '' || name.length > MAX_NAME) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `An edition's name has 1 to ${MAX_NAME} characters.`,
    );
  }
  return inTransaction(db, async (tx) => {
    const [clock] = await tx.$queryRaw<{ now: Date }[]>`SELECT clock_timestamp() AS now`;
    const effectiveAt = validEffectiveAt(edition.effectiveAt, clock?.now ?? new Date());
    const stored = await tx.edition.create({
      data: { name, effectiveAt, createdBy: edition.createdBy },
    });
    return editionOf(stored);
  });
}
