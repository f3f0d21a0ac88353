import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { graphqlRequest } from '../api/graphqlRequest';
import type { LiveLockEvent } from '../live/liveContext';
import { patchTablePage, patchTableRows, replaceRows } from './patchTables';
import { tablesNamedQuery } from './tableOperations';
import { TABLE_PAGES_KEY, type TablePageData, type TablePageView } from './useTablePage';
import { type TableInfo, tablesOptions } from './useTables';
import { TABLE_WITH_REFERENCES_KEY } from './useTableWithReferences';

// The API's most names per tablesNamed.
const MAX_NAMES = 500;

/**
 * Keeps the cached tables (the `tables` list, the tables page's pages and each table page's
 * table with its references) up to date from live
 * events, without reading every table again: each event's table states are patched in at once;
 * the few shown rows whose editBlock may have changed (it is the API's, per caller) are read
 * again by name, batched over `delayMs`. A page whose status filter a table entered or left is
 * read again (one page); an event too large to carry its states rereads what is shown.
 */
export function createTableCacheUpdates(queryClient: QueryClient, delayMs: number) {
  const pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const isActive = (queryKey: QueryKey) =>
    queryClient.getQueryCache().find({ queryKey, exact: true })?.isActive() ?? false;
  const refetch = (queryKey: QueryKey, exact = false) =>
    void queryClient.invalidateQueries({ queryKey, exact });

  const patchRows = (patch: (rows: TableInfo[]) => TableInfo[]) => {
    queryClient.setQueryData(tablesOptions.queryKey, (rows) => rows && patch(rows));
    for (const [queryKey, page] of queryClient.getQueriesData<TablePageData>({
      queryKey: TABLE_PAGES_KEY,
    })) {
      if (page) queryClient.setQueryData(queryKey, { ...page, tables: patch(page.tables) });
    }
    for (const [queryKey, rows] of queryClient.getQueriesData<TableInfo[]>({
      queryKey: TABLE_WITH_REFERENCES_KEY,
    })) {
      if (rows) queryClient.setQueryData(queryKey, patch(rows));
    }
  };

  const reread = async () => {
    timer = undefined;
    const names = [...pending];
    pending.clear();
    try {
      for (let start = 0; start < names.length; start += MAX_NAMES) {
        const { tablesNamed } = await graphqlRequest(tablesNamedQuery, {
          names: names.slice(start, start + MAX_NAMES),
        });
        const fresh = new Map(tablesNamed.map((table) => [table.name, table]));
        patchRows((rows) => replaceRows(rows, fresh));
      }
    } catch {
      // The rows keep their patched states; what only the API knows comes with a full read.
      refetch(tablesOptions.queryKey);
      refetch(TABLE_PAGES_KEY);
    }
  };
  const rereadSoon = (names: readonly string[], queryKey: QueryKey) => {
    if (!isActive(queryKey)) return;
    for (const name of names) pending.add(name);
    if (pending.size > 0) timer ??= setTimeout(() => void reread(), delayMs);
  };

  return {
    apply(event: LiveLockEvent) {
      if (event.tables === null || event.tables === undefined) {
        refetch(tablesOptions.queryKey);
        refetch(TABLE_PAGES_KEY);
        return;
      }
      const list = queryClient.getQueryData(tablesOptions.queryKey);
      if (list) {
        const patched = patchTableRows(list, event, true);
        queryClient.setQueryData(tablesOptions.queryKey, patched.rows);
        rereadSoon(patched.reread, tablesOptions.queryKey);
      }
      for (const [queryKey, page] of queryClient.getQueriesData<TablePageData>({
        queryKey: TABLE_PAGES_KEY,
      })) {
        if (!page) continue;
        const view = queryKey[1] as TablePageView;
        const patched = patchTablePage(page, view, event);
        queryClient.setQueryData(queryKey, patched.page);
        // A read under way may have started before the change: it is read again after it.
        const inFlight = queryClient.isFetching({ queryKey, exact: true }) > 0;
        if (patched.membershipChanged || inFlight) refetch(queryKey, true);
        else rereadSoon(patched.reread, queryKey);
      }
      for (const [queryKey, rows] of queryClient.getQueriesData<TableInfo[]>({
        queryKey: TABLE_WITH_REFERENCES_KEY,
      })) {
        if (!rows) continue;
        const patched = patchTableRows(rows, event, false);
        queryClient.setQueryData(queryKey, patched.rows);
        if (queryClient.isFetching({ queryKey, exact: true }) > 0) refetch(queryKey, true);
        else rereadSoon(patched.reread, queryKey);
      }
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      pending.clear();
    },
  };
}
