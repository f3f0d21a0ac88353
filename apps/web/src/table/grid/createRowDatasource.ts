import type { IDatasource } from 'ag-grid-community';
import { graphqlRequest } from '../../api/graphqlRequest';
import type { RowFilter, RowPageQueryVariables, RowSort } from '../../generated/graphql';
import type { ScheduledMarks } from '../asOf/scheduledMarks';
import { type GridRow, storedRowId } from '../changes/gridRow';
import type { PendingChanges } from '../changes/PendingChanges';
import type { ReferenceLabels } from '../reference/ReferenceLabels';
import { BlockCursors } from './blockCursors';
import type { RowsRead } from './firstRowsOptions';
import { toRowFilters, toRowSort } from './gridQueryToRowQuery';
import { rowPageQuery } from './rowOperations';

/** The sort and filter of the rows the grid shows, as the API takes them. */
export interface RowView {
  sort: RowSort[];
  filter: RowFilter[];
}

interface RowDatasourceOptions {
  table: string;
  keyColumns: readonly string[];
  pending: PendingChanges;
  /** Where the labels of the page's foreign-key values go, before its rows are shown. */
  labels: ReferenceLabels;
  onPage: (total: number, view: RowView) => void;
  onError: (error: unknown) => void;
  /** Rows read ahead of the grid for its first read, if these are the ones (takeFirstRows). */
  readAhead: (variables: RowPageQueryVariables) => Promise<RowsRead | null> | null;
  /** When the live connection now up was made (null: none is), as rows read ahead are judged. */
  liveSince: () => number | null;
  /** The time the rows are read at (ISO), read-only; null: today's rows, with unsaved edits. */
  asOf: string | null;
  /** Where the cells scheduled requests change go, read at a time ahead. */
  marks: ScheduledMarks;
}

/**
 * Feeds the grid's infinite row model: each block the user scrolls to is one `rows` page,
 * sorted and filtered by the server, shown with the user's unsaved edits. A block beside one
 * already loaded is read by cursor, a jump by offset (see BlockCursors).
 */
export function createRowDatasource(options: RowDatasourceOptions): IDatasource {
  const { table, keyColumns, pending, labels, onPage, onError, asOf, marks } = options;
  const cursors = new BlockCursors();
  let firstRead = true;
  // A sort or filter change does not cancel the reads of the view before it; their late answers
  // still fill the cursors but must not speak for the grid (its count, the export link).
  let shownViewKey: string | undefined;
  return {
    getRows(params) {
      const view: RowView = {
        sort: toRowSort(params.sortModel),
        filter: toRowFilters(params.filterModel),
      };
      const viewKey = JSON.stringify(view);
      shownViewKey = viewKey;
      const { startRow, endRow } = params;
      const variables: RowPageQueryVariables = {
        table,
        ...view,
        ...cursors.positionOf(viewKey, startRow, endRow),
        limit: endRow - startRow,
        ...(asOf === null ? {} : { asOf }),
      };
      const ahead = firstRead && asOf === null ? options.readAhead(variables) : null;
      firstRead = false;
      const readAnew = (): Promise<{ readFrom: number | null; page: RowsRead['page'] }> =>
        graphqlRequest(rowPageQuery, variables).then(({ rows: page }) => ({
          readFrom: null,
          page,
        }));
      const read = ahead ? ahead.then((found) => found ?? readAnew()) : readAnew();
      read.then(
        ({ readFrom, page }) => {
          cursors.remember(viewKey, startRow, endRow, page);
          for (const found of page.referenceLabels) labels.remember(found.column, found.labels);
          const rows = page.rows.map(({ key, version, values, scheduledChanges }): GridRow => {
            const row = { id: storedRowId(key, keyColumns), key, version, values: { ...values } };
            marks.remember(row.id, scheduledChanges);
            return asOf === null ? pending.overlay(row) : row;
          });
          params.successCallback(rows, page.total);
          if (viewKey === shownViewKey) onPage(page.total, view);
          // Read ahead before the live connection was made: shown at once, and read again, as
          // the connection has every grid that read before it (rowsReadBefore) do.
          const since = options.liveSince();
          if (readFrom !== null && since !== null && readFrom < since) {
            params.api.refreshInfiniteCache();
          }
        },
        (error: unknown) => {
          params.failCallback();
          onError(error);
        },
      );
    },
  };
}
