import type { IDatasource } from 'ag-grid-community';
import { graphqlRequest } from '../api/graphqlRequest';
import { toRowFilters, toRowSort } from './gridQueryToRowQuery';
import { type GridRow, storedRowId } from './gridRow';
import type { PendingChanges } from './PendingChanges';
import { rowPageQuery } from './rowOperations';

interface RowDatasourceOptions {
  table: string;
  keyColumns: readonly string[];
  pending: PendingChanges;
  onPage: (total: number) => void;
  onError: (error: unknown) => void;
}

/**
 * Feeds the grid's infinite row model: each block the user scrolls to is one `rows` page,
 * sorted and filtered by the server, shown with the user's unsaved edits.
 */
export function createRowDatasource(options: RowDatasourceOptions): IDatasource {
  const { table, keyColumns, pending, onPage, onError } = options;
  return {
    getRows(params) {
      graphqlRequest(rowPageQuery, {
        table,
        offset: params.startRow,
        limit: params.endRow - params.startRow,
        sort: toRowSort(params.sortModel),
        filter: toRowFilters(params.filterModel),
      }).then(
        ({ rows: page }) => {
          const rows = page.rows.map(
            ({ key, version, values }): GridRow =>
              pending.overlay({
                id: storedRowId(key, keyColumns),
                key,
                version,
                values: { ...values },
              }),
          );
          params.successCallback(rows, page.total);
          onPage(page.total);
        },
        (error: unknown) => {
          params.failCallback();
          onError(error);
        },
      );
    },
  };
}
