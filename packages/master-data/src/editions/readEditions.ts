import type { Queryable } from '@tablelock/db';
import { type ChangeRequestRecord, changeRequestOf } from '../changeRequests/changeRequestRecord';
import { type EditionRecord, editionOf } from './editionRecord';

/** Editions, the next to take effect first, then the past ones, newest first; at most 100. */
export async function readEditions(db: Queryable): Promise<EditionRecord[]> {
  const stored = await db.edition.findMany({
    orderBy: [{ state: 'asc' }, { effectiveAt: 'desc' }, { id: 'desc' }],
    take: 100,
  });
  return stored.map(editionOf);
}

/** One edition; null when none has that id. */
export async function readEdition(db: Queryable, id: string): Promise<EditionRecord | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const stored = await db.edition.findUnique({ where: { id: BigInt(id) } });
  return stored ? editionOf(stored) : null;
}

/** The requests of an edition, in the order they were submitted. */
export async function readEditionRequests(
  db: Queryable,
  id: string,
): Promise<ChangeRequestRecord[]> {
  const stored = await db.changeRequest.findMany({
    where: { editionId: BigInt(id) },
    orderBy: { id: 'asc' },
  });
  return stored.map(changeRequestOf);
}
