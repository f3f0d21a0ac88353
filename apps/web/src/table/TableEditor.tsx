import { useQueryClient } from '@tanstack/react-query';
import type { GridApi } from 'ag-grid-community';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { LockBreakDialog } from '../admin/LockBreakDialog';
import { errorCode } from '../api/GraphqlRequestError';
import { graphqlRequest } from '../api/graphqlRequest';
import { TABLES_QUERY_KEY } from '../api/queryKeys';
import type { TableColumnsQuery } from '../generated/graphql';
import { useFormatters } from '../i18n/useFormatters';
import { useLockEvents } from '../live/useLockEvents';
import { roleAtLeast } from '../session/roles';
import type { SessionUser } from '../session/useSession';
import { editBlock } from '../tables/editBlock';
import { editBlockMessage } from '../tables/editBlockMessage';
import { StatusBadge } from '../tables/StatusBadge';
import { fetchTables, type TableInfo } from '../tables/useTables';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { describeError } from '../ui/describeError';
import { useNotify } from '../ui/Notices';
import { ChangeSummary } from './ChangeSummary';
import { EditingElsewhereBanner } from './EditingElsewhereBanner';
import { findLockEnd } from './findLockEnd';
import type { GridRow } from './gridRow';
import { LockLostBanner } from './LockLostBanner';
import { LockSummary } from './LockSummary';
import { endsLock, type LockLoss } from './lockLoss';
import { readLockToken, writeLockToken } from './lockTokenStore';
import { PendingChanges } from './PendingChanges';
import { RowGrid } from './RowGrid';
import { saveRowsMutation } from './rowOperations';
import { StartEditingDialog } from './StartEditingDialog';
import { UnsavedChangesGuard } from './UnsavedChangesGuard';
import { useLeaseRenewal } from './useLeaseRenewal';
import { useTableLock } from './useTableLock';

interface TableEditorProps {
  info: TableInfo;
  tables: readonly TableInfo[];
  /** The lock states have been read since this page opened (not just taken from the cache). */
  tablesFresh: boolean;
  page: TableColumnsQuery['rows'];
  user: SessionUser;
}

/** This tab's part in the table's lock. */
type Session =
  | { kind: 'unknown' }
  | { kind: 'viewing' }
  /** `lost`: how the lock ended under the user (null while it is held). */
  | { kind: 'editing'; token: string; lost: LockLoss | null }
  /** The user holds the lock, but through another tab, device or client. */
  | { kind: 'elsewhere' };

type OpenDialog = 'start' | 'takeOver' | 'finish' | 'discard' | null;

/** What the page that led here asked for: the tables page's Edit, the admin page's Take over. */
type Arrival = { startEditing?: boolean; takeOver?: boolean } | null;

/**
 * One table: its rows, and for an editor the whole editing session — take the lock, keep it
 * alive, edit, save, discard, give it back. Unsaved edits are never thrown away behind the
 * user's back: not when a save fails, not when the lock is lost.
 */
export function TableEditor({ info, tables, tablesFresh, page, user }: TableEditorProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const notify = useNotify();
  const location = useLocation();
  const navigate = useNavigate();
  const lock = useTableLock(info.name);
  const queryClient = useQueryClient();
  const [pending] = useState(() => new PendingChanges(page.columns));
  useSyncExternalStore(pending.subscribe, pending.getRevision);
  const counts = pending.counts();
  const invalid = pending.invalidCells().length;

  const [session, setSessionState] = useState<Session>({ kind: 'unknown' });
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [total, setTotal] = useState<number | null>(null);
  const [selected, setSelected] = useState(0);
  const gridApi = useRef<GridApi<GridRow> | null>(null);
  /** The token this tab is giving back right now: its release is no loss to report. */
  const finishing = useRef<string | null>(null);

  const mayEdit = roleAtLeast(user.role, 'editor') && page.editable;
  const holds = info.status === 'editing' && info.editor === user.name;
  const editing = session.kind === 'editing';
  const lockLost = editing && (session.lost !== null || !holds);
  const token = editing && !lockLost ? session.token : null;
  const block = editBlock(info, tables, user.name);
  // An admin may take over a table someone else is editing (not one that is only FK-locked).
  const mayTakeOver = mayEdit && roleAtLeast(user.role, 'admin') && block?.reason === 'beingEdited';

  const setSession = (next: Session) => {
    // A reload of this tab finds its token again; see lockTokenStore.
    writeLockToken(user.name, info.name, next.kind === 'editing' ? next.token : null);
    setSessionState(next);
  };
  // Only for the acquisition it is about (the user may have started again meanwhile), and the
  // first account of the loss is kept: later ones (a refused save) only repeat it.
  const loseLock = (lostToken: string, loss: LockLoss) =>
    setSessionState((current) =>
      current.kind === 'editing' && current.token === lostToken && current.lost === null
        ? { ...current, lost: loss }
        : current,
    );

  /**
   * The server refused a save or renewal with LOCK_LOST: say who ended the lock and why, from
   * the history where it is found (in the user's language), else in the server's words.
   */
  const lockRefused = async (lostToken: string, message: string) => {
    void queryClient.invalidateQueries({ queryKey: TABLES_QUERY_KEY });
    const event = await findLockEnd(info.name, lostToken).catch(() => null);
    loseLock(lostToken, event ? { event } : { message });
  };

  useLeaseRenewal(lock, token, (lostToken, message) => void lockRefused(lostToken, message));

  // Told at once, by the live updates, when the lock this tab holds is ended or taken over.
  useLockEvents((event) => {
    if (session.kind !== 'editing' || session.lost || !endsLock(event, info.name, session.token)) {
      return;
    }
    if (event.action === 'release' && finishing.current === session.token) return;
    loseLock(session.token, { event });
  });

  // On opening the page: a user who holds the lock through this tab (a reload) carries on.
  // biome-ignore lint/correctness/useExhaustiveDependencies: decided once, from fresh lock states
  useEffect(() => {
    if (session.kind !== 'unknown' || !tablesFresh) return;
    const stored = readLockToken(user.name, info.name);
    if (!holds || !stored) {
      setSession(holds ? { kind: 'elsewhere' } : { kind: 'viewing' });
      return;
    }
    lock.renew(stored).then(
      () => setSession({ kind: 'editing', token: stored, lost: null }),
      (error: unknown) =>
        setSession(
          errorCode(error) === 'LOCK_LOST'
            ? { kind: 'elsewhere' }
            : { kind: 'editing', token: stored, lost: null },
        ),
    );
  }, [session.kind, tablesFresh]);

  // The lock states show the lock gone before anything said why (a poll while not live): ask
  // the history.
  const unexplained = editing && lockLost && session.lost === null ? session.token : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: loseLock only sets state
  useEffect(() => {
    if (!unexplained) return;
    findLockEnd(info.name, unexplained).then(
      (event) => event && loseLock(unexplained, { event }),
      () => {},
    );
  }, [unexplained, info.name]);

  // The other tab or device gave the lock back: this one is an ordinary viewer again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: setSession is this render's helper
  useEffect(() => {
    if (session.kind === 'elsewhere' && !holds) setSession({ kind: 'viewing' });
  }, [session.kind, holds]);

  // Arriving through the tables page's Edit or the admin page's Take over opens its dialog, once.
  const arrival = location.state as Arrival;
  const wants = arrival?.startEditing ? 'start' : arrival?.takeOver ? 'takeOver' : null;
  useEffect(() => {
    if (!wants || session.kind === 'unknown') return;
    navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
    if (session.kind !== 'viewing') return;
    if (wants === 'start' && mayEdit && !block) setDialog('start');
    if (wants === 'takeOver' && mayTakeOver) setDialog('takeOver');
  }, [
    wants,
    session.kind,
    mayEdit,
    mayTakeOver,
    block,
    navigate,
    location.pathname,
    location.search,
  ]);

  const refreshRows = () => gridApi.current?.refreshInfiniteCache();

  /** Acquires the lock, or with a reason takes it over from whoever holds it. */
  async function takeLock(takeOverReason: string | null) {
    setBusy(true);
    const previousEditor = info.editor;
    try {
      const newToken =
        takeOverReason === null ? await lock.acquire() : await lock.takeOver(takeOverReason);
      setSession({ kind: 'editing', token: newToken, lost: null });
      notify(
        'success',
        previousEditor && previousEditor !== user.name
          ? t('table.tookOver', { table: info.name, editor: previousEditor })
          : t('table.started', { table: info.name }),
      );
    } catch (error) {
      notify('error', await startRefusal(error));
    } finally {
      setBusy(false);
      setDialog(null);
    }
  }

  /** Why starting failed: from fresh lock states where they explain it, else the server's words. */
  async function startRefusal(error: unknown): Promise<string> {
    if (errorCode(error) !== 'LOCK_CONFLICT') return describeError(error, t);
    const fresh = await queryClient
      .fetchQuery({ queryKey: TABLES_QUERY_KEY, queryFn: fetchTables, staleTime: 0 })
      .catch(() => []);
    const now = fresh.find((candidate) => candidate.name === info.name);
    const why = now && editBlock(now, fresh, user.name);
    return t('table.startRefused', {
      reason: why ? editBlockMessage(why, t) : describeError(error, t),
    });
  }

  async function save() {
    gridApi.current?.stopEditing();
    if (busy || session.kind !== 'editing' || pending.counts().total === 0) return;
    if (lockLost) {
      notify('error', t('table.lockLostOnSave'));
      return;
    }
    if (pending.invalidCells().length > 0) {
      notify('error', t('table.fixInvalid'));
      return;
    }
    setBusy(true);
    const { changes, origins } = pending.toRowChanges();
    try {
      const { saveRows: result } = await graphqlRequest(saveRowsMutation, {
        table: info.name,
        token: session.token,
        changes,
      });
      if (result.saved) {
        pending.clear();
        refreshRows();
        notify('success', t('table.saved', result));
      } else {
        const unplaced = pending.setSaveErrors(result.rowErrors, origins);
        const summary = t('table.saveRefused', { count: result.rowErrors.length });
        notify('error', [summary, ...unplaced.map((error) => error.message)].join(' '));
      }
    } catch (error) {
      if (errorCode(error) === 'LOCK_LOST' && error instanceof Error) {
        await lockRefused(session.token, error.message);
        notify('error', t('table.lockLostOnSave'));
      } else {
        notify('error', describeError(error, t));
      }
    } finally {
      setBusy(false);
    }
  }
  const saveRef = useRef(save);
  saveRef.current = save;

  useEffect(() => {
    if (!editing) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void saveRef.current();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [editing]);

  async function finishEditing() {
    setBusy(true);
    finishing.current = token;
    try {
      if (token) await lock.release(token);
      pending.clear();
      refreshRows();
      setSession({ kind: 'viewing' });
      notify('success', t('table.finished', { table: info.name }));
    } catch (error) {
      notify('error', describeError(error, t));
    } finally {
      finishing.current = null;
      setBusy(false);
      setDialog(null);
    }
  }

  const discard = () => {
    pending.clear();
    refreshRows();
    setDialog(null);
  };

  const deleteSelected = () => {
    const api = gridApi.current;
    if (!api) return;
    pending.delete(api.getSelectedRows());
    api.deselectAll();
  };

  return (
    <section className="page table-page">
      <div className="page-header">
        <div className="page-title">
          <h1>
            <span data-testid="table-title">{info.name}</span>
            <span data-testid="table-status">
              <StatusBadge status={info.status} mine={holds} />
            </span>
          </h1>
          <LockSummary info={info} user={user.name} />
          {!roleAtLeast(user.role, 'editor') && <p className="muted">{t('table.viewOnly')}</p>}
        </div>
        <div className="page-actions">
          {mayEdit && session.kind === 'viewing' && (
            <>
              {block && <span className="block-reason">{editBlockMessage(block, t)}</span>}
              {mayTakeOver && (
                <button
                  type="button"
                  className="button danger"
                  disabled={busy}
                  onClick={() => setDialog('takeOver')}
                >
                  {t('takeOver.action')}
                </button>
              )}
              <button
                type="button"
                className="button primary"
                disabled={block !== null || busy}
                onClick={() => setDialog('start')}
              >
                {t('table.startEditing')}
              </button>
            </>
          )}
          {editing && (
            <>
              <button
                type="button"
                className="button subtle"
                disabled={busy || counts.total === 0}
                onClick={() => setDialog('discard')}
              >
                {t('table.discard')}
              </button>
              <button
                type="button"
                className="button primary"
                disabled={busy || lockLost || counts.total === 0 || invalid > 0}
                title={t('table.saveShortcut')}
                onClick={() => void save()}
              >
                {busy ? t('table.working') : t('table.save')}
              </button>
              <button
                type="button"
                className="button"
                disabled={busy}
                onClick={() => (counts.total > 0 ? setDialog('finish') : void finishEditing())}
              >
                {t('table.finishEditing')}
              </button>
            </>
          )}
        </div>
      </div>

      {lockLost && (
        <LockLostBanner
          table={info.name}
          unsaved={counts.total}
          loss={editing ? session.lost : null}
          user={user.name}
          canStartAgain={block === null}
          busy={busy}
          // Still the editor, through another tab: starting again here is moving the lock back.
          onStartAgain={() => void takeLock(holds ? t('elsewhere.reason') : null)}
          onStop={() => (counts.total > 0 ? setDialog('finish') : void finishEditing())}
        />
      )}
      {session.kind === 'elsewhere' && (
        <EditingElsewhereBanner
          table={info.name}
          busy={busy}
          onContinueHere={() => void takeLock(t('elsewhere.reason'))}
        />
      )}
      {!page.editable && roleAtLeast(user.role, 'editor') && (
        <p className="banner banner-info">{t('table.noPrimaryKey')}</p>
      )}

      {editing && (
        <div className="edit-toolbar" role="toolbar" aria-label={t('table.editTools')}>
          <button
            type="button"
            className="button small"
            disabled={lockLost}
            onClick={() => pending.addRow()}
          >
            + {t('table.addRow')}
          </button>
          <button
            type="button"
            className="button small"
            disabled={lockLost || selected === 0}
            onClick={deleteSelected}
          >
            {selected === 0
              ? t('table.deleteRows')
              : t('table.deleteSelected', { count: selected })}
          </button>
          <ChangeSummary counts={counts} invalid={invalid} />
        </div>
      )}

      <RowGrid
        table={info.name}
        columns={page.columns}
        pending={pending}
        editable={editing && !lockLost}
        onTotal={setTotal}
        onLoadError={(error) => notify('error', describeError(error, t))}
        onReady={(api) => {
          gridApi.current = api;
        }}
        onSelectionCount={setSelected}
      />
      <footer className="grid-footer">
        <span data-testid="row-count">
          {total === null
            ? ''
            : t('table.rowCount', { count: total, formatted: format.count(total) })}
        </span>
        {editing && (
          <span className="legend">
            <span className="legend-item legend-new">{t('rowState.new')}</span>
            <span className="legend-item legend-changed">{t('rowState.changed')}</span>
            <span className="legend-item legend-deleted">{t('rowState.deleted')}</span>
            <span className="legend-item legend-invalid">{t('legend.invalid')}</span>
          </span>
        )}
      </footer>

      <StartEditingDialog
        open={dialog === 'start'}
        table={info}
        tables={tables}
        busy={busy}
        onConfirm={() => void takeLock(null)}
        onCancel={() => setDialog(null)}
      />
      {dialog === 'takeOver' && (
        <LockBreakDialog
          kind="takeOver"
          table={info}
          busy={busy}
          onConfirm={(reason) => void takeLock(reason)}
          onCancel={() => setDialog(null)}
        />
      )}
      <ConfirmDialog
        open={dialog === 'finish'}
        title={t('finishEditing.title')}
        confirmLabel={t('finishEditing.confirm')}
        cancelLabel={t('finishEditing.keepEditing')}
        tone="danger"
        busy={busy}
        onConfirm={() => void finishEditing()}
        onCancel={() => setDialog(null)}
      >
        <p>{t('finishEditing.unsaved', { count: counts.total })}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'discard'}
        title={t('discard.title')}
        confirmLabel={t('discard.confirm')}
        tone="danger"
        onConfirm={discard}
        onCancel={() => setDialog(null)}
      >
        <p>{t('discard.message', { count: counts.total })}</p>
      </ConfirmDialog>
      <UnsavedChangesGuard unsaved={counts.total} />
    </section>
  );
}
