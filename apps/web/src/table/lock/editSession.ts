import type { IdlePhase } from './idleDeadline';
import type { LockLoss } from './lockLoss';

/** This tab's part in the table's lock. */
export type EditSession =
  /**
   * Until the lock states are read fresh: a lock the user holds may be this tab's (a reload,
   * which finds its token again in `storedToken`) or another tab's.
   */
  | { kind: 'opening'; storedToken: string | null }
  /**
   * The user holds the lock and this tab held `token` before a reload: it asks the server whether
   * the token is still the current one. `holds`: the lock states as read meanwhile.
   */
  | { kind: 'resuming'; token: string; holds: boolean }
  | { kind: 'viewing' }
  /** The user holds the lock, but through another tab, device or client. */
  | { kind: 'elsewhere' }
  /**
   * This tab holds the lock under `token`; `finishing` while it gives it back. `idle`: where
   * the user stands with the idle limit (a countdown while `warning`; the server ends the lock
   * once `ending`, unless the user shows activity first).
   */
  | { kind: 'editing'; token: string; finishing: boolean; idle: IdlePhase }
  /**
   * The lock ended under this tab: its edits stay, but cannot be saved. `loss`: how, once known
   * (null while the lock states only show it gone).
   */
  | { kind: 'lost'; token: string; loss: LockLoss | null };

export type EditSessionEvent =
  /** Fresh lock states: whether the user holds the table's lock (through any tab). */
  | { type: 'lockStatesRead'; holds: boolean }
  /** The server renewed the token this tab held before a reload, or could not say it ended. */
  | { type: 'resumed' }
  /** The token this tab held before a reload has ended (LOCK_LOST). */
  | { type: 'resumeRefused' }
  /** This tab started editing, took the lock over, or moved it here from another tab. */
  | { type: 'acquired'; token: string }
  | { type: 'releasing' }
  | { type: 'releaseFailed' }
  /** The user finished editing: the lock is given back (or was already gone). */
  | { type: 'released' }
  /** Acquisition `token` ended, as told live, by a refused request or by the history. */
  | { type: 'lost'; token: string; loss: LockLoss }
  /**
   * The idle clock of acquisition `token` moved on: the warning is due, the limit is reached,
   * or activity the server has heard of (Keep editing, an edit) started it again.
   */
  | { type: 'idle'; token: string; phase: IdlePhase };

/** The token of the acquisition this tab is editing under, held or lost. */
export function sessionToken(session: EditSession): string | null {
  return session.kind === 'editing' || session.kind === 'lost' ? session.token : null;
}

/**
 * The next state of this tab's session. Nothing here touches the unsaved edits: losing the lock
 * keeps them, and only finishing (EditSessionStore) drops them.
 */
export function reduceEditSession(session: EditSession, event: EditSessionEvent): EditSession {
  switch (event.type) {
    case 'lockStatesRead':
      return lockStatesRead(session, event.holds);
    case 'resumed':
      if (session.kind !== 'resuming') return session;
      // Renewed, yet no longer shown as the user's: it ended since; the history may say how.
      return session.holds
        ? editing(session.token)
        : { kind: 'lost', token: session.token, loss: null };
    case 'resumeRefused':
      if (session.kind !== 'resuming') return session;
      return session.holds ? { kind: 'elsewhere' } : { kind: 'viewing' };
    case 'acquired':
      return editing(event.token);
    case 'releasing':
      return session.kind === 'editing' ? { ...session, finishing: true } : session;
    case 'releaseFailed':
      return session.kind === 'editing' ? { ...session, finishing: false } : session;
    case 'released':
      return session.kind === 'editing' || session.kind === 'lost' ? { kind: 'viewing' } : session;
    case 'lost':
      return lost(session, event.token, event.loss);
    case 'idle':
      // A tab giving the lock back has no idle limit to warn of.
      return session.kind === 'editing' &&
        session.token === event.token &&
        !session.finishing &&
        session.idle !== event.phase
        ? { ...session, idle: event.phase }
        : session;
  }
}

const editing = (token: string): EditSession => ({
  kind: 'editing',
  token,
  finishing: false,
  idle: 'active',
});

function lockStatesRead(session: EditSession, holds: boolean): EditSession {
  switch (session.kind) {
    case 'opening':
      if (!holds) return { kind: 'viewing' };
      return session.storedToken === null
        ? { kind: 'elsewhere' }
        : { kind: 'resuming', token: session.storedToken, holds };
    case 'resuming':
      return session.holds === holds ? session : { ...session, holds };
    case 'elsewhere':
      // The other tab or device gave the lock back: this one is an ordinary viewer again.
      return holds ? session : { kind: 'viewing' };
    case 'editing':
      // Gone before anything said why (a poll while not live). A tab giving the lock back sees
      // it go as it should.
      return holds || session.finishing
        ? session
        : { kind: 'lost', token: session.token, loss: null };
    default:
      return session;
  }
}

/**
 * Only for the acquisition it is about (the user may have started again meanwhile), and the
 * first account of the loss is kept: later ones (a refused save) only repeat it.
 */
function lost(session: EditSession, token: string, loss: LockLoss): EditSession {
  if (sessionToken(session) !== token) return session;
  if (session.kind === 'lost') return session.loss === null ? { ...session, loss } : session;
  if (session.kind !== 'editing') return session;
  // The release of a tab that is giving the lock back is no loss to report.
  if (session.finishing && 'event' in loss && loss.event.action === 'release') return session;
  return { kind: 'lost', token, loss };
}
