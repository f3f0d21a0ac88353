import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColDef, ColumnEvent, ColumnEventType, GridApi, GridState } from 'ag-grid-community';
import { type RefObject, useCallback, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { graphqlRequest } from '../../api/graphqlRequest';
import type { SavedViewFieldsFragment } from '../../generated/graphql';
import type { GridRow } from '../changes/gridRow';
import {
  arrangeColumns,
  type ColumnLayout,
  columnStateOf,
  layoutOfGrid,
  sortOfGrid,
} from './columnLayout';
import { formatSortParam, parseSortParam } from './sortParam';
import {
  deleteSavedViewMutation,
  gridLayoutOptions,
  savedViewOptions,
  savedViewsOptions,
  saveGridLayoutMutation,
  saveViewMutation,
} from './viewOperations';

export type SavedView = SavedViewFieldsFragment;

/** What the grid takes from the views: its columns arranged, where it starts, what it reports. */
export interface GridViewSetup {
  arrange: (defs: ColDef<GridRow>[]) => ColDef<GridRow>[];
  initialState: GridState;
  events: {
    onColumnResized: (event: ColumnEvent & { finished: boolean }) => void;
    onColumnMoved: (event: ColumnEvent & { finished: boolean }) => void;
    onColumnVisible: (event: ColumnEvent) => void;
    onColumnPinned: (event: ColumnEvent) => void;
    onSortChanged: () => void;
  };
}

// Changes the grid makes itself (starting, new column definitions) are not the user's layout.
const NOT_THE_USER: ReadonlySet<ColumnEventType> = new Set([
  'gridInitializing',
  'gridOptionsChanged',
  'flex',
]);

/**
 * The user's views of a table's grid: the layout they last left it in (kept on the server),
 * their saved views and those shared with them, the one picked (`?view=` in the URL) and the
 * sort (`?sort=`), so that a reload or a shared link shows the same rows the same way.
 */
export function useGridViews(
  table: string,
  columnNames: readonly string[],
  grid: RefObject<GridApi<GridRow> | null>,
) {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const viewId = params.get('view');
  const layout = useQuery(gridLayoutOptions(table));
  const views = useQuery(savedViewsOptions(table));
  const picked = useQuery({ ...savedViewOptions(viewId ?? ''), enabled: viewId !== null });
  const dataColumns = useMemo(() => new Set(columnNames), [columnNames]);
  const urlSort = useMemo(() => parseSortParam(params.get('sort')), [params]);
  const shownLayout: readonly ColumnLayout[] = picked.data?.columns ?? layout.data ?? [];
  const startSort = urlSort ?? picked.data?.sort ?? [];
  const startFilter = picked.data?.filter ?? null;
  // Only the grid's start waits for the layout and view: a view picked later changes the grid.
  const started = useRef(false);
  if (!layout.isPending && (viewId === null || !picked.isPending)) started.current = true;
  const savedLayout = useRef<string | null>(null);
  // Compared by value: the same layout and sort must not rebuild the grid's columns.
  const layoutKey = JSON.stringify(shownLayout);
  const sortKey = JSON.stringify(startSort);

  const saveLayout = useMutation({
    mutationFn: (columns: ColumnLayout[]) =>
      graphqlRequest(saveGridLayoutMutation, { table, columns }),
    onSuccess: ({ saveGridLayout }) =>
      queryClient.setQueryData(gridLayoutOptions(table).queryKey, saveGridLayout),
  });

  const layoutChanged = useCallback(
    (event: ColumnEvent & { finished?: boolean }) => {
      if (NOT_THE_USER.has(event.source) || event.finished === false) return;
      // A picked view keeps its columns as saved; the user's own layout is the one without.
      if (viewId !== null) return;
      const columns = layoutOfGrid(event.api.getColumnState(), dataColumns);
      const json = JSON.stringify(columns);
      if (json === (savedLayout.current ?? JSON.stringify(layout.data ?? []))) return;
      savedLayout.current = json;
      saveLayout.mutate(columns);
    },
    [viewId, dataColumns, layout.data, saveLayout.mutate],
  );

  const setup: GridViewSetup = {
    arrange: useCallback(
      (defs) => arrangeColumns(defs, dataColumns, JSON.parse(layoutKey), JSON.parse(sortKey)),
      [dataColumns, layoutKey, sortKey],
    ),
    initialState: useMemo(
      () => (startFilter ? { filter: { filterModel: startFilter } } : {}),
      [startFilter],
    ),
    events: {
      onColumnResized: layoutChanged,
      onColumnMoved: layoutChanged,
      onColumnVisible: layoutChanged,
      onColumnPinned: layoutChanged,
      onSortChanged: () => {
        const api = grid.current;
        if (!api) return;
        const sort = formatSortParam(sortOfGrid(api.getColumnState()));
        setParams(
          (current) => {
            const next = new URLSearchParams(current);
            if (sort) next.set('sort', sort);
            else next.delete('sort');
            return next;
          },
          { replace: true },
        );
      },
    },
  };

  /** Shows a saved view (its columns, sort and filter), or with null the user's own layout. */
  const pick = (view: SavedView | null) => {
    const api = grid.current;
    if (view) queryClient.setQueryData(savedViewOptions(view.id).queryKey, view);
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (view) next.set('view', view.id);
      else next.delete('view');
      const sort = formatSortParam(view?.sort ?? []);
      if (sort) next.set('sort', sort);
      else next.delete('sort');
      return next;
    });
    const sort = new Map((view?.sort ?? []).map((term, index) => [term.column, { term, index }]));
    const columns = columnStateOf(view?.columns ?? layout.data ?? []);
    const named = new Set(columns.map((column) => column.colId));
    api?.applyColumnState({
      state: [
        ...columns,
        ...[...sort.keys()].filter((column) => !named.has(column)).map((colId) => ({ colId })),
      ].map((column) => ({
        ...column,
        sort: sort.get(column.colId)?.term.direction ?? null,
        sortIndex: sort.get(column.colId)?.index ?? null,
      })),
      defaultState: { sort: null },
      applyOrder: columns.length > 0,
    });
    api?.setFilterModel(view?.filter ?? null);
  };

  const save = useMutation({
    mutationFn: ({ name, shared }: { name: string; shared: boolean }) => {
      const api = grid.current;
      const state = api?.getColumnState() ?? [];
      return graphqlRequest(saveViewMutation, {
        view: {
          table,
          name,
          shared,
          sort: sortOfGrid(state),
          filter: api?.getFilterModel() ?? {},
          columns: layoutOfGrid(state, dataColumns),
        },
      });
    },
    onSuccess: async ({ saveView }) => {
      await queryClient.invalidateQueries({ queryKey: savedViewsOptions(table).queryKey });
      pick(saveView);
    },
  });

  const remove = useMutation({
    mutationFn: (id: string) => graphqlRequest(deleteSavedViewMutation, { id }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: savedViewsOptions(table).queryKey });
      pick(null);
    },
  });

  return {
    ready: started.current,
    setup,
    views: views.data ?? [],
    picked: picked.data ?? null,
    pickedMissing: picked.isError,
    pick,
    save,
    remove,
  };
}

export type GridViews = ReturnType<typeof useGridViews>;
