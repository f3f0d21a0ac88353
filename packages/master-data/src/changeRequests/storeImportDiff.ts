import type { TransactionClient } from '@tablelock/db';

/**
 * Stores an import dry run's creates and updates as change request `requestId`'s diff, in file
 * order, within the database: a large file's rows never pass through the API (an 85,000-row
 * file outlived its submission's transaction that way). Each becomes a ChangeRequestRow: an
 * insert of its values, or an update of its changed columns from their previous values. Answers
 * how many rows it holds.
 */
export async function storeImportDiff(
  tx: TransactionClient,
  requestId: bigint,
  dryRunId: string,
): Promise<number> {
  const [stored] = await tx.$queryRaw<{ rowCount: number }[]>`
    UPDATE tablelock.change_request AS request
    SET rows = diff.rows, row_count = diff.count
    FROM (SELECT coalesce(jsonb_agg(
                   CASE dry_row.outcome
                     WHEN 'create' THEN jsonb_build_object(
                       'action', 'insert', 'key', dry_row.key, 'version', NULL,
                       'oldValues', NULL, 'newValues', dry_row."values")
                     ELSE jsonb_build_object(
                       'action', 'update', 'key', dry_row.key, 'version', dry_row.version,
                       'oldValues', dry_row.previous,
                       'newValues', coalesce(
                         (SELECT jsonb_object_agg(name, coalesce(dry_row."values"->name, 'null'))
                          FROM unnest(dry_row.changed) AS name), '{}'))
                   END ORDER BY dry_row.line), '[]') AS rows,
                 count(*)::int AS count
          FROM tablelock.import_dry_run_row AS dry_row
          WHERE dry_row.dry_run_id = ${dryRunId}::uuid
            AND dry_row.outcome IN ('create', 'update')) AS diff
    WHERE request.id = ${requestId}
    RETURNING request.row_count AS "rowCount"`;
  return stored?.rowCount ?? 0;
}
