import type { PrismaClient } from '@tablelock/db';
import { acquireTableLocks, grantedOrConflict } from '@tablelock/lock';
import { MASTER_SCHEMA } from '@tablelock/test-support';
import { applyScheduledEdition } from '../../src';

/** Moves edition `editionId`'s time a second into the past: due now, without waiting for it. */
export async function makeDue(prisma: PrismaClient, editionId: string): Promise<void> {
  await prisma.$executeRaw`
    UPDATE tablelock.edition SET effective_at = now() - interval '1 second'
    WHERE id = ${editionId}::bigint`;
}

/** Applies edition `id` as the scheduler would, its tables taken at once (they must be free). */
export const applyEditionNow = (prisma: PrismaClient, id: string) =>
  applyScheduledEdition(prisma, {
    schema: MASTER_SCHEMA,
    id,
    claimant: 'test',
    takeTables: async (tableNames, editor) => {
      const grants = grantedOrConflict(
        await acquireTableLocks(prisma, { tableNames, editor, leaseSeconds: 600 }),
      );
      return new Map(grants.map((grant) => [grant.tableName, grant.fencingToken]));
    },
  });
