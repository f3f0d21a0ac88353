import { useQueryClient } from '@tanstack/react-query';
import type { GridApi } from 'ag-grid-community';
import { type RefObject, useState } from 'react';
import { errorCode } from '../api/GraphqlRequestError';
import { graphqlRequest } from '../api/graphqlRequest';
import type {
  SubmitForApprovalMutation,
  SubmitForApprovalMutationVariables,
} from '../generated/graphql';
import { useFormatters } from '../i18n/useFormatters';
import { CHANGE_REQUESTS_KEY } from '../requests/changeRequestQueries';
import type { Schedule } from '../schedule/ApplyOnForm';
import { SCHEDULE_KEY } from '../schedule/scheduleQueries';
import type { TableInfo } from '../tables/useTables';
import { describeError } from '../ui/describeError';
import { useNotify } from '../ui/Notices';
import type { GridRow } from './changes/gridRow';
import type { PendingChanges } from './changes/PendingChanges';
import type { Submission } from './changes/SubmitForApprovalDialog';
import { saveRowsMutation, submitChangeRequestMutation } from './changes/saveOperations';
import { startRefusal } from './lock/startRefusal';
import type { EditSessionHandle } from './lock/useEditSession';
import type { TableLock } from './lock/useTableLock';

type ScheduledRequest = NonNullable<SubmitForApprovalMutation['submitChangeRequest']['request']>;

export type EditDialog =
  | 'start'
  | 'rows'
  | 'takeOver'
  | 'finish'
  | 'discard'
  | 'submit'
  | 'schedule';

interface EditActionsOptions {
  info: TableInfo;
  user: string;
  pending: PendingChanges;
  lock: TableLock;
  edit: EditSessionHandle;
  grid: RefObject<GridApi<GridRow> | null>;
}

/**
 * What the user does with the session — take the lock, save, discard, give the lock back — each
 * through its dialog where it has one, one at a time, and told how it went. Unsaved edits are
 * never thrown away behind the user's back: not when a save fails, not when the lock is lost.
 */
export function useEditActions({ info, user, pending, lock, edit, grid }: EditActionsOptions) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<EditDialog | null>(null);
  const [scheduleError, setScheduleError] = useState<unknown>(null);
  const format = useFormatters();
  const { session, dispatch } = edit;
  const refreshRows = () => grid.current?.refreshInfiniteCache();

  /** Acquires the lock, or with a reason takes it over from whoever holds it. */
  async function takeLock(takeOverReason: string | null) {
    setBusy(true);
    const previousEditor = info.editor;
    try {
      const token =
        takeOverReason === null ? await lock.acquire() : await lock.takeOver(takeOverReason);
      dispatch({ type: 'acquired', token });
      notify('success', (t) =>
        previousEditor && previousEditor !== user
          ? t('table.tookOver', { table: info.name, editor: previousEditor })
          : t('table.started', { table: info.name }),
      );
    } catch (error) {
      notify('error', startRefusal(error, queryClient));
    } finally {
      setBusy(false);
      setDialog(null);
    }
  }

  /** Acquires a row scope: the rows whose row-lock column has one of `rows`. */
  async function takeRows(rows: readonly string[]) {
    setBusy(true);
    try {
      dispatch({ type: 'acquired', token: await lock.acquire(rows) });
      notify('success', (t) =>
        t('rowScope.started', { table: info.name, values: rows.join(', ') }),
      );
    } catch (error) {
      notify('error', startRefusal(error, queryClient));
    } finally {
      setBusy(false);
      setDialog(null);
    }
  }

  /** Whether the pending edits may go out now; says why not. */
  function readyToSave(): boolean {
    grid.current?.stopEditing();
    if (busy || pending.counts().total === 0) return false;
    if (session.kind === 'lost') {
      notify('error', (t) => t('table.lockLostOnSave'));
      return false;
    }
    if (session.kind !== 'editing') return false;
    if (pending.invalidCells().length > 0) {
      notify('error', (t) => t('table.fixInvalid'));
      return false;
    }
    return true;
  }

  async function save() {
    if (!readyToSave() || session.kind !== 'editing') return;
    setBusy(true);
    const sent = pending.toRowChanges();
    const { changes, origins } = sent;
    try {
      const { saveRows: result } = await graphqlRequest(saveRowsMutation, {
        table: info.name,
        token: session.token,
        changes,
      });
      if (result.saved) {
        pending.saved(sent, result.updatedVersions);
        refreshRows();
        notify('success', (t) => t('table.saved', result));
      } else {
        const unplaced = pending.setSaveErrors(result.rowErrors, origins);
        const count = result.rowErrors.length;
        notify('error', (t) =>
          [t('table.saveRefused', { count }), ...unplaced.map((error) => error.message)].join(' '),
        );
      }
    } catch (error) {
      if (errorCode(error) === 'LOCK_LOST' && error instanceof Error) {
        await edit.lockRefused(session.token, error.message);
        notify('error', (t) => t('table.lockLostOnSave'));
      } else {
        notify('error', (t) => describeError(error, t));
      }
    } finally {
      setBusy(false);
    }
  }

  /**
   * On a table that needs approval: the pending edits become a change request, which takes
   * the lock with it; this tab no longer edits.
   */
  async function submit({ comment, keepEditing }: Submission) {
    if (!readyToSave() || session.kind !== 'editing') return;
    setBusy(true);
    try {
      const request = await sendRequest(session.token, {
        comment: comment.trim() || null,
        keepEditing,
      });
      if (request) {
        dispatch({ type: 'released' });
        notify('success', (t) => t('table.submitted', { id: request.id }));
      }
    } catch (error) {
      notify('error', (t) => describeError(error, t));
    } finally {
      setBusy(false);
      setDialog(null);
      await queryClient.invalidateQueries({ queryKey: CHANGE_REQUESTS_KEY });
    }
  }

  /**
   * "Apply on…": the pending edits become a request the API applies at its time (decision
   * 0023). The lock goes back at once unless kept, so others edit meanwhile. A refused time
   * stays in the dialog, in words, to be corrected.
   */
  async function schedule({ effectiveAt, editionId, comment, keepEditing }: Schedule) {
    if (!readyToSave() || session.kind !== 'editing') return;
    setBusy(true);
    setScheduleError(null);
    try {
      const request = await sendRequest(session.token, {
        comment: comment.trim() || null,
        keepEditing,
        effectiveAt: effectiveAt?.toISOString() ?? null,
        editionId,
      });
      setDialog(null);
      if (request) scheduled(request, keepEditing);
    } catch (error) {
      setScheduleError(error);
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: CHANGE_REQUESTS_KEY });
      await queryClient.invalidateQueries({ queryKey: SCHEDULE_KEY });
    }
  }

  /**
   * A request to apply at a time was made (of the grid's changes or an import's dry run): this
   * tab stops editing unless it kept the lock, and says when it takes effect.
   */
  function scheduled(request: ScheduledRequest, keepEditing: boolean) {
    if (!keepEditing) dispatch({ type: 'released' });
    const at = request.effectiveAt ? format.dateTimeSeconds(request.effectiveAt) : '';
    notify('success', (t) =>
      request.state === 'pending'
        ? t('schedule.submittedForApproval', { id: request.id, at })
        : t('schedule.scheduled', { id: request.id, at }),
    );
  }

  /**
   * Sends the pending edits as a change request; once it is made they live in it and leave the
   * grid (and the draft). Rows that would not save stay, marked; then null.
   */
  async function sendRequest(
    token: string,
    request: Omit<SubmitForApprovalMutationVariables, 'table' | 'token' | 'changes'>,
  ) {
    const { changes, origins } = pending.toRowChanges();
    const { submitChangeRequest: result } = await graphqlRequest(submitChangeRequestMutation, {
      table: info.name,
      token,
      changes,
      ...request,
    });
    if (result.request) {
      pending.clear();
      refreshRows();
      return result.request;
    }
    const unplaced = pending.setSaveErrors(result.rowErrors, origins);
    const count = result.rowErrors.length;
    notify('error', (t) =>
      [t('table.saveRefused', { count }), ...unplaced.map((error) => error.message)].join(' '),
    );
    setDialog(null);
    return null;
  }

  /** Gives the lock back (if this tab still holds it) and drops the unsaved edits. */
  async function finish() {
    setBusy(true);
    try {
      if (session.kind === 'editing') {
        dispatch({ type: 'releasing' });
        await lock.release(session.token);
      }
      dispatch({ type: 'released' });
      refreshRows();
      notify('success', (t) => t('table.finished', { table: info.name }));
    } catch (error) {
      dispatch({ type: 'releaseFailed' });
      notify('error', (t) => describeError(error, t));
    } finally {
      setBusy(false);
      setDialog(null);
    }
  }

  return {
    busy,
    dialog,
    openDialog: setDialog,
    closeDialog: () => setDialog(null),
    takeLock: (takeOverReason: string | null) => void takeLock(takeOverReason),
    takeRows: (rows: readonly string[]) => void takeRows(rows),
    save: () => void save(),
    /** Save on a table that needs approval: asks for a comment first. */
    askToSubmit: () => readyToSave() && setDialog('submit'),
    submit: (submission: Submission) => void submit(submission),
    /** "Apply on…": asks when first. */
    askToSchedule: () => {
      if (!readyToSave()) return;
      setScheduleError(null);
      setDialog('schedule');
    },
    schedule: (plan: Schedule) => void schedule(plan),
    /** Why the server refused the last "Apply on…" (null: not refused). */
    scheduleError,
    /** "Apply on…" of an import made its request. */
    importScheduled: (request: ScheduledRequest, keepEditing: boolean) => {
      scheduled(request, keepEditing);
      refreshRows();
      void queryClient.invalidateQueries({ queryKey: CHANGE_REQUESTS_KEY });
      void queryClient.invalidateQueries({ queryKey: SCHEDULE_KEY });
    },
    /** Goes on editing under a token a change request handed back. */
    continueWith: (token: string) => dispatch({ type: 'acquired', token }),
    finish: () => void finish(),
    /** Finishing with unsaved edits asks first. */
    stop: () => (pending.counts().total > 0 ? setDialog('finish') : void finish()),
    discard: () => {
      pending.clear();
      refreshRows();
      setDialog(null);
    },
  };
}
