import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { errorCode } from '../../api/GraphqlRequestError';
import { useLockEvents } from '../../live/useLockEvents';
import { tablesOptions } from '../../tables/useTables';
import type { PendingChanges } from '../changes/PendingChanges';
import { ActivityTracker } from './activityTracker';
import { EditSessionStore } from './EditSessionStore';
import { type EditSession, sessionToken } from './editSession';
import { findLockEnd } from './findLockEnd';
import { type IdleDeadline, idlePhaseAt } from './idleDeadline';
import { endsLock } from './lockLoss';
import { readLockToken, writeLockToken } from './lockTokenStore';
import { useIdleClock } from './useIdleClock';
import { useLeaseRenewal } from './useLeaseRenewal';
import { usePageActivity } from './usePageActivity';
import type { TableLock } from './useTableLock';

interface EditSessionOptions {
  table: string;
  user: string;
  /** The lock states show the user holding the table's lock, through any tab. */
  holds: boolean;
  /** The lock states have been read since this page opened (not just taken from the cache). */
  tablesFresh: boolean;
  pending: PendingChanges;
  lock: TableLock;
}

export interface EditSessionHandle {
  session: EditSession;
  dispatch: EditSessionStore['dispatch'];
  /**
   * The server refused a request under `token` with LOCK_LOST: says who ended the lock and why,
   * from the history where it is found (in the user's language), else in the server's words.
   */
  lockRefused(token: string, message: string): Promise<void>;
  /** When the idle limit ends the lock unless the user shows activity (page clock), if it can. */
  idleDeadline: IdleDeadline | null;
  /** Tells the server at once that the user is here (the countdown's Keep editing). */
  keepEditing(): void;
}

/**
 * This tab's edit session, kept up with the world: on arrival it carries on the session of a
 * reloaded tab, it keeps the lock alive while editing and the user is active, warns before the
 * idle limit, and it learns of the lock's end from the live updates, a refused renewal or the
 * lock states.
 */
export function useEditSession(options: EditSessionOptions): EditSessionHandle {
  const { table, user, holds, tablesFresh, pending, lock } = options;
  const queryClient = useQueryClient();
  const [store] = useState(
    () =>
      new EditSessionStore(pending, {
        read: () => readLockToken(user, table),
        write: (token) => writeLockToken(user, table, token),
      }),
  );
  const session = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const { dispatch } = store;
  const [activity] = useState(() => new ActivityTracker());
  usePageActivity(activity, pending);
  // Each acquisition has its own idle clock, known from its renewals.
  const [idleClock, setIdleClock] = useState<{ token: string; deadline: IdleDeadline | null }>();

  // Cached lock states may be old: which session this tab is in is decided from fresh ones.
  useEffect(() => {
    if (tablesFresh) dispatch({ type: 'lockStatesRead', holds });
  }, [dispatch, tablesFresh, holds]);

  const resuming = session.kind === 'resuming' ? session.token : null;
  useEffect(() => {
    if (!resuming) return;
    // Coming back to the page (a reload) is activity.
    lock.renew(resuming, true).then(
      () => dispatch({ type: 'resumed' }),
      // Any other failure leaves the token in doubt: the renewals settle it.
      (error: unknown) =>
        dispatch({ type: errorCode(error) === 'LOCK_LOST' ? 'resumeRefused' : 'resumed' }),
    );
  }, [dispatch, lock, resuming]);

  const lockRefused = async (token: string, message: string) => {
    void queryClient.invalidateQueries({ queryKey: tablesOptions.queryKey });
    const event = await findLockEnd(table, token).catch(() => null);
    dispatch({ type: 'lost', token, loss: event ? { event } : { message } });
  };

  const renewing = session.kind === 'editing' && !session.finishing ? session.token : null;
  const idleDeadline = renewing && idleClock?.token === renewing ? idleClock.deadline : null;
  const renewNow = useLeaseRenewal(lock, renewing, activity, {
    onRenewed: (token, deadline) => {
      setIdleClock({ token, deadline });
      dispatch({ type: 'idle', token, phase: idlePhaseAt(deadline, Date.now()) });
    },
    onLost: (token, message) => void lockRefused(token, message),
  });

  useIdleClock(store, renewing, idleDeadline, activity, renewNow);

  // Told at once, by the live updates, when the lock this tab edits under is ended or taken over.
  useLockEvents((event) => {
    const token = sessionToken(store.getSnapshot());
    if (token && endsLock(event, table, token)) dispatch({ type: 'lost', token, loss: { event } });
  });

  // The lock states showed the lock gone before anything said why: ask the history.
  const unexplained = session.kind === 'lost' && session.loss === null ? session.token : null;
  useEffect(() => {
    if (!unexplained) return;
    findLockEnd(table, unexplained).then(
      (event) => event && dispatch({ type: 'lost', token: unexplained, loss: { event } }),
      () => {},
    );
  }, [dispatch, table, unexplained]);

  return {
    session,
    dispatch,
    lockRefused,
    idleDeadline,
    keepEditing: () => {
      activity.note();
      renewNow();
    },
  };
}
