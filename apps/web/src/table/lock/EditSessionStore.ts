import type { PendingChanges } from '../changes/PendingChanges';
import { type EditSession, type EditSessionEvent, reduceEditSession } from './editSession';

/** Where this tab keeps the token it edits under, across reloads (lockTokenStore). */
export interface TokenKeeper {
  read(): string | null;
  write(token: string | null): void;
}

/**
 * This tab's edit session, outside React like the edits themselves: every event goes through
 * `reduceEditSession`, and listeners hear of every change. It keeps the token for a reload of
 * the tab, and drops the edits when the user finishes editing, never when the lock is lost.
 */
export class EditSessionStore {
  private session: EditSession;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly pending: PendingChanges,
    private readonly tokens: TokenKeeper,
  ) {
    this.session = { kind: 'opening', storedToken: tokens.read() };
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): EditSession => this.session;

  dispatch = (event: EditSessionEvent): void => {
    const next = reduceEditSession(this.session, event);
    if (next === this.session) return;
    this.session = next;
    if (next.kind === 'editing' || next.kind === 'lost') this.tokens.write(next.token);
    else if (next.kind === 'viewing' || next.kind === 'elsewhere') this.tokens.write(null);
    if (event.type === 'released') this.pending.clear();
    for (const listener of this.listeners) listener();
  };
}
