import type { TransactionClient } from '@tablelock/db';
import type { RowValues } from '../readRows';
import type { ChangeRequestRow } from './changeRequestRecord';

/** An import dry run's creates and updates as a change request's diff, in file order. */
export async function importDiff(
  tx: TransactionClient,
  dryRunId: string,
): Promise<ChangeRequestRow[]> {
  const rows = await tx.$queryRaw<
    {
      outcome: 'create' | 'update';
      key: RowValues | null;
      version: string | null;
      values: RowValues;
      changed: string[];
      previous: RowValues | null;
    }[]
  >`
    SELECT outcome, key, version, "values", changed, previous
    FROM tablelock.import_dry_run_row
    WHERE dry_run_id = ${dryRunId}::uuid AND outcome IN ('create', 'update')
    ORDER BY line`;
  return rows.map((row) =>
    row.outcome === 'create'
      ? { action: 'insert', key: row.key, version: null, oldValues: null, newValues: row.values }
      : {
          action: 'update',
          key: row.key,
          version: row.version,
          oldValues: row.previous,
          newValues: Object.fromEntries(
            row.changed.map((name) => [name, row.values[name] ?? null]),
          ),
        },
  );
}
