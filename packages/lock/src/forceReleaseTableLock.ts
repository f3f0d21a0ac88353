import type { PrismaClient } from '@tablelock/db';
import { LockError } from './lockError';
import { compareAndSetLockRows, readLockScope } from './lockRegistrySql';
import type { LockIntent } from './lockRequest';
import { planLockChange } from './planLockChange';

export interface ForcedRelease {
  tableName: string;
  /** Who was editing the table until now. */
  editor: string;
}

// A forced release loses only to a transaction holding a row at that very moment; it retries
// at once (no waiting on locks), and only gives up if the table keeps changing under it.
const ATTEMPTS = 20;

/**
 * Ends whoever's editing of `tableName` with all its FK holds, as the holder's own release
 * would. For admins clearing stale locks; the caller checks the role and records the reason.
 */
export async function forceReleaseTableLock(
  prisma: PrismaClient,
  tableName: string,
): Promise<ForcedRelease> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const rows = await readLockScope(prisma, tableName, []);
    const main = rows.get(tableName);
    if (!main) throw new LockError('TABLE_NOT_FOUND', `No master table is named ${tableName}.`);
    if (main.status !== 'editing' || !main.editor) {
      const why =
        main.status === 'locked'
          ? `it is locked because ${main.lockedBy.join(', ')} ${main.lockedBy.length > 1 ? 'are' : 'is'} being edited; release that instead`
          : 'nobody is editing it';
      throw new LockError('INVALID_TRANSITION', `${tableName} cannot be force-released: ${why}.`);
    }
    const intent: LockIntent = {
      kind: 'release',
      tableName,
      namedFkTables: [],
      editor: main.editor,
    };
    const plan = planLockChange(intent, rows);
    if (!plan.granted) continue;
    const { written } = await compareAndSetLockRows(prisma, [...rows.values()], plan.changes);
    if (written) return { tableName, editor: main.editor };
  }
  throw new LockError('LOCK_CONFLICT', `${tableName} kept changing; try again.`);
}
