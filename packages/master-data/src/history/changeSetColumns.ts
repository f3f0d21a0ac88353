import { Prisma } from '@tablelock/db';
import type { ChangeKind, ChangeSetRecord } from './historyRecords';

/** The columns of `tablelock.change_set` as a ChangeSetRecord reads them, from alias `cs`. */
export const CHANGE_SET_COLUMNS = Prisma.sql`
  cs.id::text AS "id", cs.table_name AS "tableName", cs.kind::text AS "kind",
  cs.token::text AS "token", cs.actor, cs.db_role AS "dbRole",
  cs.application_name AS "applicationName", cs.reverts_change_set_id::text AS "revertsChangeId",
  cs.at, cs.rows_inserted AS "rowsInserted", cs.rows_updated AS "rowsUpdated",
  cs.rows_deleted AS "rowsDeleted", cs.approved_by AS "approvedBy",
  cs.change_request_id::text AS "changeRequestId", nullif(cs.row_scope, '{}') AS "rowScope",
  nullif(cs.broken_scopes, '{}')::text[] AS "brokenScopes"`;

export type ChangeSetRow = Omit<ChangeSetRecord, 'kind'> & { kind: string };

export const changeSetRecord = (row: ChangeSetRow): ChangeSetRecord => ({
  ...row,
  kind: row.kind as ChangeKind,
});
