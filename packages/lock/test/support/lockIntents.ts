import type { LockIntent } from '../../src/core/lockIntent';

type AcquireFields = Partial<Omit<Extract<LockIntent, { kind: 'acquire' }>, 'kind' | 'tableName'>>;

/** alice asking to start editing `tableName` with a 60-second lease, unless `fields` say otherwise. */
export const acquireIntent = (tableName: string, fields: AcquireFields = {}): LockIntent => ({
  kind: 'acquire',
  tableName,
  namedFkTables: [],
  editor: 'alice',
  leaseSeconds: 60,
  ...fields,
});
