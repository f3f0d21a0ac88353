import type { GridApi } from 'ag-grid-community';
import { useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { TableColumnsQuery } from '../generated/graphql';
import { inLine } from '../queue/queueWait';
import { useWaitForTable } from '../queue/useWaitForTable';
import { roleAtLeast } from '../session/roles';
import type { SessionUser } from '../session/useSession';
import { holdsTable } from '../tables/holdsTable';
import type { TableInfo } from '../tables/useTables';
import { describeError } from '../ui/describeError';
import { LoadingState } from '../ui/LoadingState';
import { useNotify } from '../ui/Notices';
import { usePageTitle } from '../ui/usePageTitle';
import { AsOfBanner } from './asOf/AsOfBanner';
import type { GridRow } from './changes/gridRow';
import { PendingChanges } from './changes/PendingChanges';
import { UnsavedChangesGuard } from './changes/UnsavedChangesGuard';
import { useSaveShortcut } from './changes/useSaveShortcut';
import { useDraft } from './drafts/useDraft';
import { EditDialogs } from './EditDialogs';
import { EditorBanners } from './EditorBanners';
import { EditTools } from './EditTools';
import { GridFooter } from './GridFooter';
import type { RowView } from './grid/createRowDatasource';
import { RowGrid } from './grid/RowGrid';
import { SessionActions } from './lock/SessionActions';
import { useArrivalDialog } from './lock/useArrivalDialog';
import { useAwaitingApproval } from './lock/useAwaitingApproval';
import { useConnectionLoss } from './lock/useConnectionLoss';
import { useEditSession } from './lock/useEditSession';
import { useTableLock } from './lock/useTableLock';
import { onlyScopesInTheWay } from './scope/onlyScopesInTheWay';
import { rowInScope, rowScopeOf } from './scope/rowScopeOf';
import { TableHeading } from './TableHeading';
import { useEditActions } from './useEditActions';
import { GridViewBar } from './views/GridViewBar';
import { useGridViews } from './views/useGridViews';

interface TableEditorProps {
  info: TableInfo;
  tables: readonly TableInfo[];
  /** The lock states have been read since this page opened (not just taken from the cache). */
  tablesFresh: boolean;
  page: TableColumnsQuery['rows'];
  user: SessionUser;
}

/**
 * One table: its rows, and for an editor the whole editing session (useEditSession) and what
 * they do with it (useEditActions), laid out.
 */
export function TableEditor({ info, tables, tablesFresh, page, user }: TableEditorProps) {
  const notify = useNotify();
  const lock = useTableLock(info.name);
  const [pending] = useState(() => new PendingChanges(page.columns));
  useSyncExternalStore(pending.subscribe, pending.getRevision);
  const counts = pending.counts();
  const invalid = pending.invalidCells().length;
  usePageTitle(info.name, counts.total > 0);
  const [shown, setShown] = useState<{ total: number | null; view: RowView }>({
    total: null,
    view: { sort: [], filter: [] },
  });
  const [selected, setSelected] = useState(0);
  const [detailRow, setDetailRow] = useState<GridRow | null>(null);
  const gridApi = useRef<GridApi<GridRow> | null>(null);
  const startButton = useRef<HTMLButtonElement>(null);
  const takeOverButton = useRef<HTMLButtonElement>(null);
  const columnNames = useMemo(() => page.columns.map((column) => column.name), [page.columns]);
  const views = useGridViews(info.name, columnNames, gridApi);

  const mayEdit = roleAtLeast(user.role, 'editor') && page.editable;
  const holds = holdsTable(info, user.name);
  const scope = useMemo(() => rowScopeOf(info, user.name), [info, user.name]);
  // Someone else's editing the take-over rule lets the user take over (admins: anyone's; with
  // the idle rule, an editor once its holder is idle). Not a table that is only FK-locked.
  const mayTakeOver = mayEdit && !holds && info.canTakeOver;

  const edit = useEditSession({
    table: info.name,
    user: user.name,
    holds,
    tablesFresh,
    pending,
    lock,
  });
  const { session } = edit;
  const connectionLoss = useConnectionLoss(lock, session.kind === 'editing');
  const actions = useEditActions({ info, user: user.name, pending, lock, edit, grid: gridApi });
  const editing = session.kind === 'editing' || session.kind === 'lost';
  const draft = useDraft({ table: info.name, user: user.name, pending, grid: gridApi });
  // Cells open for typing once an earlier draft is restored or discarded, not over it.
  // Another time than now: read-only rows, until "Back to today" (or the user starts editing).
  const [asOf, setAsOf] = useState<string | null>(null);
  if (editing && asOf !== null) setAsOf(null);
  const gridEditable = session.kind === 'editing' && draft.settled && asOf === null;
  const needsApproval = info.policy.changesNeedApproval;
  const saveOrSubmit = needsApproval ? actions.askToSubmit : actions.save;
  useSaveShortcut(editing, saveOrSubmit);
  const awaitingApproval = useAwaitingApproval(info.name, user);
  const mayStart = mayEdit && session.kind === 'viewing' && !awaitingApproval;
  const queue = useWaitForTable(info.name);

  useArrivalDialog({
    known: views.ready && session.kind !== 'opening' && session.kind !== 'resuming',
    viewing: session.kind === 'viewing',
    mayStart: mayEdit && !info.editBlock,
    mayTakeOver,
    startButton,
    takeOverButton,
    openDialog: actions.openDialog,
  });

  if (!views.ready) return <LoadingState />;
  return (
    <section className="page table-page">
      <div className="page-header">
        <TableHeading
          info={info}
          page={page}
          user={user}
          holds={holds}
          unconfirmed={connectionLoss !== null}
          grid={gridApi}
          token={session.kind === 'editing' ? session.token : null}
          asOf={asOf}
          onAsOf={setAsOf}
          editing={editing}
        />
        <div className="page-actions">
          <SessionActions
            mode={editing ? 'edit' : mayStart ? 'start' : null}
            block={info.editBlock}
            mayTakeOver={mayTakeOver}
            inLine={inLine(queue.wait)}
            lockLost={session.kind === 'lost'}
            needsApproval={needsApproval}
            busy={actions.busy}
            unsaved={counts.total}
            invalid={invalid}
            onStart={() => actions.openDialog('start')}
            onStartRows={scope ? () => actions.openDialog('rows') : null}
            rowsOpen={onlyScopesInTheWay(info.editBlock)}
            onNotify={queue.join}
            onTakeOver={() => actions.openDialog('takeOver')}
            startButton={startButton}
            takeOverButton={takeOverButton}
            onDiscard={() => actions.openDialog('discard')}
            onSave={saveOrSubmit}
            onSchedule={actions.askToSchedule}
            onFinish={actions.stop}
          />
        </div>
      </div>

      <EditorBanners
        info={info}
        user={user}
        edit={edit}
        actions={actions}
        draft={draft}
        queue={queue}
        unsaved={counts.total}
        holds={holds}
        awaitingApproval={awaitingApproval}
        connectionLoss={connectionLoss}
        tableEditable={page.editable}
      />
      <AsOfBanner table={info.name} asOf={asOf} onBackToToday={() => setAsOf(null)} />

      {/* Before the edit toolbar: from the grid, Shift+Tab reaches the toolbar's actions first. */}
      <GridViewBar
        table={info.name}
        views={views}
        columnNames={columnNames}
        grid={gridApi}
        user={user.name}
        columns={page.columns}
        pending={pending}
        editable={gridEditable}
        rowEditable={(row) => rowInScope(scope, row, pending.isNew(row.id))}
        detailRow={detailRow}
        onDetailRow={setDetailRow}
      />
      {editing && draft.settled && (
        <EditTools
          table={info.name}
          columns={page.columns}
          pending={pending}
          grid={gridApi}
          lockLost={session.kind === 'lost'}
          selected={selected}
          counts={counts}
          invalid={invalid}
          scope={scope}
          token={session.kind === 'editing' ? session.token : null}
          mayCheck={!needsApproval}
        />
      )}

      <RowGrid
        table={info.name}
        views={views.setup}
        columns={page.columns}
        pending={pending}
        editable={gridEditable}
        onPage={(total, view) => setShown({ total, view })}
        onLoadError={(error) => notify('error', (t) => describeError(error, t))}
        onReady={(api) => {
          gridApi.current = api;
        }}
        onSelectionCount={setSelected}
        scope={scope}
        onRowTap={setDetailRow}
        asOf={asOf}
      />
      <GridFooter
        table={info.name}
        total={shown.total}
        view={shown.view}
        editing={editing}
        grid={gridApi}
        importToken={session.kind === 'editing' ? session.token : null}
        unsaved={counts.total}
        needsApproval={info.policy.changesNeedApproval}
        onImportScheduled={actions.importScheduled}
      />

      <EditDialogs
        open={actions.dialog}
        info={info}
        tables={tables}
        busy={actions.busy}
        unsaved={counts.total}
        onTakeLock={actions.takeLock}
        scope={scope}
        columns={page.columns}
        filter={shown.view.filter}
        onTakeRows={actions.takeRows}
        onFinish={actions.finish}
        onDiscard={actions.discard}
        onSubmit={actions.submit}
        onSchedule={actions.schedule}
        scheduleError={actions.scheduleError}
        onCancel={actions.closeDialog}
      />
      <UnsavedChangesGuard unsaved={counts.total} />
    </section>
  );
}
