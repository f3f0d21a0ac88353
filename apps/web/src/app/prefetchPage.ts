import type { QueryClient } from '@tanstack/react-query';
import { sessionOptions } from '../session/useSession';
import { firstRowsOptions } from '../table/grid/firstRowsOptions';
import { tableColumnsOptions } from '../table/grid/useTableColumns';
import {
  gridLayoutOptions,
  savedViewOptions,
  savedViewsOptions,
} from '../table/views/viewOperations';
import { tableWithReferencesOptions } from '../tables/useTableWithReferences';

/**
 * Route loaders start a page's reads and return at once: the router runs them beside loading a
 * lazy page's code, so the reads are under way before the page first renders instead of after
 * (on a first visit of the table page: its code, then the session, then the table's columns
 * and views, then its rows — one after the other). The pages read the same queries as usual;
 * they find them answered or in flight (the grid its first rows: takeFirstRows). A refusal (no
 * session) is the page's to show.
 */
export function prefetchSession(queryClient: QueryClient): null {
  void queryClient.prefetchQuery(sessionOptions);
  return null;
}

export function prefetchTablePage(queryClient: QueryClient, table: string, url: URL): null {
  const viewId = url.searchParams.get('view');
  // Unsorted and unfiltered, its first rows are known before the grid is: read them too, and
  // first. The browser opens at most six connections to the server, and the page's code and
  // its other reads set out at the same moment: read last, the rows (the slowest answer) waited
  // for a free connection, up to half a second on a busy machine.
  if (viewId === null && !url.searchParams.has('sort')) {
    void queryClient.prefetchQuery(firstRowsOptions(table));
  }
  void queryClient.prefetchQuery(tableWithReferencesOptions(table));
  void queryClient.prefetchQuery(tableColumnsOptions(table));
  void queryClient.prefetchQuery(gridLayoutOptions(table));
  void queryClient.prefetchQuery(savedViewsOptions(table));
  if (viewId !== null) void queryClient.prefetchQuery(savedViewOptions(viewId));
  return null;
}
