import { graphql } from './generated';
import type { ClientRowsQuery, RowFilter, RowSort } from './generated/graphql';
import type { TablelockApi } from './tablelockApi';

/** A row as read: its primary key, its version (for a save's update or delete), its values as text. */
export type TableRow = ClientRowsQuery['rows']['rows'][number];
export type { RowFilter, RowSort };

export interface RowsOptions {
  /** Rows asked for at a time (1–1000). */
  pageSize?: number;
  sort?: RowSort[];
  filter?: RowFilter[];
}

const rowsQuery = graphql(`
  query ClientRows(
    $table: String!
    $limit: Int
    $after: String
    $sort: [RowSort!]
    $filter: [RowFilter!]
  ) {
    rows(table: $table, limit: $limit, after: $after, sort: $sort, filter: $filter) {
      rows {
        key
        version
        values
      }
      endCursor
    }
  }
`);

/** A page read is retried this long while the API cannot be reached. */
const READ_RETRY_MS = 10_000;

/**
 * Every row of `table` (sorted and filtered as asked), page after page by cursor: as quick deep in
 * the table as at its start, and a row inserted or deleted meanwhile shifts no page.
 */
export async function* readRows(
  api: TablelockApi,
  table: string,
  options: RowsOptions = {},
): AsyncGenerator<TableRow> {
  const { pageSize = 500, sort, filter } = options;
  let after: string | null = null;
  for (;;) {
    const { rows }: ClientRowsQuery = await api.request(
      rowsQuery,
      { table, limit: pageSize, after, sort, filter },
      { retryForMs: api.retryFor(READ_RETRY_MS) },
    );
    yield* rows.rows;
    if (rows.rows.length < pageSize || !rows.endCursor) return;
    after = rows.endCursor;
  }
}
