import { graphql } from './generated';
import type { ChangeSetFilter, RowHistoryQuery, TableChangesQuery } from './generated/graphql';
import type { TablelockApi } from './tablelockApi';

/** A page of a table's changes, newest first; `endCursor` reads the next. */
export type TableChangesPage = TableChangesQuery['tableChanges'];
/** A page of one row's changes, newest first; `endCursor` reads the next. */
export type RowHistoryPage = RowHistoryQuery['rowHistory'];
export type { ChangeSetFilter };

export interface HistoryPageOptions {
  /** The `endCursor` of the page before. */
  after?: string | null;
  first?: number;
}

const tableChangesQuery = graphql(`
  query TableChanges($table: String!, $filter: ChangeSetFilter, $after: String, $first: Int) {
    tableChanges(table: $table, filter: $filter, after: $after, first: $first) {
      changes {
        id
        kind
        actor
        dbRole
        applicationName
        token
        revertsChangeId
        at
        rowsInserted
        rowsUpdated
        rowsDeleted
      }
      endCursor
    }
  }
`);

const rowHistoryQuery = graphql(`
  query RowHistory($table: String!, $key: JSON!, $after: String, $first: Int) {
    rowHistory(table: $table, key: $key, after: $after, first: $first) {
      rows {
        id
        operation
        oldValues
        newValues
        change {
          id
          kind
          actor
          dbRole
          at
        }
      }
      endCursor
    }
  }
`);

/** Reads are retried this long while the API cannot be reached (they change nothing). */
const READ_RETRY_MS = 10_000;

export async function readTableChanges(
  api: TablelockApi,
  table: string,
  options: HistoryPageOptions & { filter?: ChangeSetFilter | null } = {},
): Promise<TableChangesPage> {
  const { after = null, first, filter = null } = options;
  const data = await api.request(
    tableChangesQuery,
    { table, filter, after, ...(first === undefined ? {} : { first }) },
    { retryForMs: api.retryFor(READ_RETRY_MS) },
  );
  return data.tableChanges;
}

export async function readRowHistory(
  api: TablelockApi,
  table: string,
  key: Record<string, string | null>,
  options: HistoryPageOptions = {},
): Promise<RowHistoryPage> {
  const { after = null, first } = options;
  const data = await api.request(
    rowHistoryQuery,
    { table, key, after, ...(first === undefined ? {} : { first }) },
    { retryForMs: api.retryFor(READ_RETRY_MS) },
  );
  return data.rowHistory;
}
