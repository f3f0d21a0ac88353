import { AG_GRID_LOCALE_JP } from '@ag-grid-community/locale';
import { useQueryClient } from '@tanstack/react-query';
import type {
  ColDef,
  GridApi,
  GridReadyEvent,
  RowSelectionOptions,
  SelectionColumnDef,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/i18n';
import { useFormatters } from '../../i18n/useFormatters';
import { LiveUpdatesContext } from '../../live/liveContext';
import { useNarrowScreen } from '../../ui/useNarrowScreen';
import { ScheduledMarks } from '../asOf/scheduledMarks';
import { withCaptions } from '../captions/withCaptions';
import type { GridRow } from '../changes/gridRow';
import type { PendingChanges } from '../changes/PendingChanges';
import { useValidationMessage } from '../changes/useValidationMessage';
import { useSpreadsheet } from '../clipboard/useSpreadsheet';
import { ReferenceLabels } from '../reference/ReferenceLabels';
import { gridScope } from '../scope/gridScope';
import type { RowScope } from '../scope/rowScopeOf';
import { TypeAhead } from '../typeAhead/TypeAhead';
import type { GridViewSetup } from '../views/useGridViews';
import { buildColumnDefs } from './buildColumnDefs';
import { createRowDatasource, type RowView } from './createRowDatasource';
import { BLOCK_SIZE, takeFirstRows } from './firstRowsOptions';
import { gridKeyboard } from './gridKeyboard';
import { gridTheme } from './gridSetup';
import { useRowsRevision } from './useRowsRevision';
import type { TableColumn } from './useTableColumns';

interface RowGridProps {
  table: string;
  columns: readonly TableColumn[];
  pending: PendingChanges;
  /** The user holds the lock: cells may be edited and rows selected for deletion. */
  editable: boolean;
  /** A page arrived: the rows in the view, and the view (sort and filter) they are in. */
  onPage: (total: number, view: RowView) => void;
  onLoadError: (error: unknown) => void;
  onReady: (api: GridApi<GridRow>) => void;
  onSelectionCount: (count: number) => void;
  /** The user's layout, sort and filter to start with, and where column changes go. */
  views: GridViewSetup;
  /** The table's row scopes (null: it has no row-lock column): who may edit which rows. */
  scope: RowScope | null;
  /** On a phone, a tap on a row: it opens as a form (the cells are too narrow to edit in). */
  onRowTap: (row: GridRow) => void;
  /** The rows at this time (ISO), read-only; null: today's. */
  asOf: string | null;
}

/** A master table's rows: loaded block by block as the user scrolls, sorted and filtered on the server. */
// The checkboxes stay in view beside the row status when the grid scrolls sideways.
const SELECTION_COLUMN: SelectionColumnDef = { pinned: 'left', width: 44 };

export function RowGrid(props: RowGridProps) {
  const { table, columns, pending, editable, onPage, onLoadError, onReady, onSelectionCount } =
    props;
  const { arrange, initialState, events: viewEvents } = props.views;
  const { t, i18n } = useTranslation();
  const language = currentLanguage(i18n.resolvedLanguage);
  const format = useFormatters();
  const validationMessage = useValidationMessage();
  const [api, setApi] = useState<GridApi<GridRow> | null>(null);
  const newRowCount = useRef(0);
  const firstNewRow = useRef<string | undefined>(undefined);
  const container = useRef<HTMLDivElement>(null);
  const spreadsheet = useSpreadsheet({ api, columns, pending, editable, container });
  const [typeAhead] = useState(() => new TypeAhead());
  const narrow = useNarrowScreen();
  useSyncExternalStore(pending.subscribe, pending.getRevision);
  const counts = pending.counts();

  // Column callbacks read the latest permission without rebuilding the columns.
  const editableRef = useRef(editable);
  editableRef.current = editable;
  // Scopes come and go live: the columns read the latest, and the rows are drawn again.
  const scopeRef = useRef(props.scope);
  scopeRef.current = props.scope;
  const scopeColumn = props.scope?.column ?? null;
  const scope = useMemo(
    () =>
      scopeColumn === null
        ? null
        : gridScope(
            scopeColumn,
            () => scopeRef.current,
            (rowId) => pending.isNew(rowId),
          ),
    [scopeColumn, pending],
  );
  const showHolders = (props.scope?.holders.size ?? 0) > 0;
  // The parent's callbacks change identity on every render; the datasource must not.
  const callbacks = useRef({ onPage, onLoadError });
  callbacks.current = { onPage, onLoadError };
  const queryClient = useQueryClient();
  const liveSince = useRef<number | null>(null);
  liveSince.current = useContext(LiveUpdatesContext).since;

  const keyColumns = useMemo(
    () => columns.filter((column) => column.primaryKey).map((column) => column.name),
    [columns],
  );
  // The page mounts a new grid for another table (TablePage keys the editor by table), which
  // starts with no labels.
  const [labels] = useState(() => new ReferenceLabels());
  const { asOf } = props;
  // Each time read has marks of its own (none for today or the past).
  const marks = useMemo(() => (asOf === null ? null : new ScheduledMarks()), [asOf]);
  const datasource = useMemo(
    () =>
      createRowDatasource({
        table,
        keyColumns,
        pending,
        labels,
        onPage: (total, view) => callbacks.current.onPage(total, view),
        onError: (error) => callbacks.current.onLoadError(error),
        readAhead: (variables) => takeFirstRows(queryClient, variables),
        liveSince: () => liveSince.current,
        asOf,
        marks: marks ?? new ScheduledMarks(),
      }),
    [table, keyColumns, pending, labels, queryClient, asOf, marks],
  );
  const showStatus = editable || counts.total > 0;
  const columnDefs = useMemo(
    () =>
      buildColumnDefs(columns, {
        pending,
        canEdit: () => editableRef.current,
        showStatus,
        format,
        t,
        validationMessage,
        references: { table, labels },
        typeAhead,
        scope,
        showHolders,
        narrow,
        scheduled: marks,
      }),
    [
      columns,
      pending,
      showStatus,
      format,
      t,
      validationMessage,
      table,
      labels,
      typeAhead,
      scope,
      showHolders,
      narrow,
      marks,
    ],
  );
  const arrangedColumnDefs = useMemo(
    () => arrange(withCaptions(columnDefs, columns, language)),
    [arrange, columnDefs, columns, language],
  );

  // The grid compares its options by identity: a new object on each render would have it
  // build its columns again, and lay them out again, on every render of the page.
  const { cellClassRules } = spreadsheet;
  const defaultColDef = useMemo<ColDef<GridRow>>(
    () => ({ resizable: true, sortable: true, floatingFilter: true, cellClassRules }),
    [cellClassRules],
  );
  const rowSelection = useMemo<RowSelectionOptions<GridRow> | undefined>(
    () =>
      editable
        ? {
            mode: 'multiRow',
            // A phone's screen has no room for them (phone.css, EditToolbar).
            checkboxes: !narrow,
            headerCheckbox: false,
            enableClickSelection: false,
            isRowSelectable: ({ data }) =>
              data !== undefined && (scope === null || scope.rowInScope(data)),
          }
        : undefined,
    [editable, narrow, scope],
  );

  // Someone saved this table (or the connection came back): show the rows as they are now.
  const revision = useRowsRevision(table);
  const shownRevision = useRef(revision);
  // A save came while the user typed: the rows are reloaded once the cell is left.
  const reloadAfterEdit = useRef(false);
  useEffect(() => {
    if (!api || revision === shownRevision.current) return;
    // Reloading now would cancel what the user types. Editing the whole table, the user alone
    // changes its rows: the save is the echo of their own, already shown, and a reload as the
    // cell is left would redraw the rows under their next click. In a row scope, it may be
    // another editor's save of other rows: those are reloaded once the cell is left.
    if (api.getEditingCells().length > 0) {
      if (!scopeRef.current?.mine) return;
      reloadAfterEdit.current = true;
    } else api.refreshInfiniteCache();
    shownRevision.current = revision;
  }, [api, revision]);

  // Who holds which rows, and which the user may edit, changed: paint the cells again (not
  // redrawn: that would cancel what the user is typing).
  const scopeKey = JSON.stringify([
    editable,
    props.scope?.mine ?? null,
    [...(props.scope?.holders ?? [])],
  ]);
  const paintedScope = useRef(scopeKey);
  useEffect(() => {
    if (!api || scopeKey === paintedScope.current) return;
    paintedScope.current = scopeKey;
    api.refreshCells({ force: true });
  }, [api, scopeKey]);

  // Unsaved-change markers live in cell classes: repaint them whenever the edits change.
  useEffect(() => {
    if (!api) return;
    return pending.subscribe(() => api.refreshCells({ force: true }));
  }, [api, pending]);

  return (
    <div
      className={narrow ? 'row-grid row-grid-narrow' : 'row-grid'}
      data-testid="row-grid"
      ref={container}
      {...spreadsheet.containerProps}
      onKeyDownCapture={(event) => {
        if (!typeAhead.capture(event, api)) spreadsheet.containerProps.onKeyDownCapture(event);
      }}
    >
      <AgGridReact<GridRow>
        // The grid reads its texts once: a new language needs a new grid (the edits are kept).
        key={language}
        theme={gridTheme}
        localeText={language === 'ja' ? AG_GRID_LOCALE_JP : undefined}
        rowModelType="infinite"
        datasource={datasource}
        cacheBlockSize={BLOCK_SIZE}
        maxBlocksInCache={50}
        blockLoadDebounceMillis={80}
        maxConcurrentDatasourceRequests={2}
        getRowId={({ data }) => data.id}
        columnDefs={arrangedColumnDefs}
        initialState={initialState}
        {...viewEvents}
        defaultColDef={defaultColDef}
        pinnedTopRowData={pending.newRows() as GridRow[]}
        rowSelection={rowSelection}
        selectionColumnDef={SELECTION_COLUMN}
        stopEditingWhenCellsLoseFocus
        {...gridKeyboard}
        enterNavigatesVerticallyAfterEdit
        tooltipShowDelay={400}
        {...spreadsheet.gridProps}
        onGridReady={(event: GridReadyEvent<GridRow>) => {
          setApi(event.api);
          onReady(event.api);
        }}
        // A new language replaces the grid: until the new one is ready, the effects above must
        // not call the old one's API (a destroyed grid answers undefined; the page crashed on it).
        onGridPreDestroyed={() => setApi(null)}
        onCellClicked={({ data }) => {
          if (narrow && data) props.onRowTap(data);
        }}
        onSelectionChanged={(event) => onSelectionCount(event.api.getSelectedNodes().length)}
        onCellEditingStopped={({ api: grid }) => {
          if (!reloadAfterEdit.current) return;
          reloadAfterEdit.current = false;
          grid.refreshInfiniteCache();
        }}
        onPinnedRowDataChanged={({ api: grid }) => {
          // A row just added (new rows go on top) opens for typing at its first editable cell;
          // rows a paste adds go below and are filled already.
          const count = grid.getPinnedTopRowCount();
          const topRow = grid.getPinnedTopRow(0)?.id;
          if (count > newRowCount.current && topRow !== firstNewRow.current) {
            const filled = grid.getPinnedTopRow(0)?.data?.values ?? {};
            const first =
              columns.find((column) => !column.hasDefault && filled[column.name] == null) ??
              columns[0];
            if (first) {
              // Focus first: Tab and Enter move on from the focused cell, not the edited one.
              grid.setFocusedCell(0, first.name, 'top');
              grid.startEditingCell({ rowIndex: 0, rowPinned: 'top', colKey: first.name });
            }
          }
          newRowCount.current = count;
          firstNewRow.current = topRow;
        }}
      />
    </div>
  );
}
