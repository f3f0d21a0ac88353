import type { EditorRights } from './tableRules';

/**
 * What a lock operation asks for, once validated. Every kind is planned by the same state
 * machine (planLockChange) and written by the same conditional write.
 */
export type LockIntent =
  /** Start editing: the table becomes `editing`, every FK table `locked` with it as holder. */
  | {
      kind: 'acquire';
      tableName: string;
      /** FK tables the caller named (legacy clients do), besides the discovered ones. */
      namedFkTables: string[];
      editor: string;
      /** Null: no expiry. */
      leaseSeconds: number | null;
      /**
       * The other tables of an all-or-nothing request for several: those of them the table
       * references are edited by the same request, so they are not also locked for it.
       */
      coEdited?: string[];
      /**
       * The caller's waiter, when it waited in line: only those before it go first. Without
       * one, those before the editor's own earliest waiter for the table go first (all of the
       * line if it has none).
       */
      waiterId?: string;
      /**
       * The editor's role and groups, checked against the table's policy of who may edit.
       * Every API path passes them; absent only for trusted callers (tests, the benchmark).
       */
      rights?: EditorRights;
    }
  /** Finish editing, by the holder; `token`, when given, must be the current acquisition's. */
  | {
      kind: 'release';
      tableName: string;
      namedFkTables: string[];
      editor: string;
      token?: string;
    }
  /** End whoever's editing (an admin's force-release, or logout for the holder's own). */
  | { kind: 'forceRelease'; tableName: string }
  /**
   * End an editing whose lease has run out, or (`idle`) whose holder has been idle past the
   * table's idle limit: the sweeper, or an acquirer or renewal finding it dead.
   */
  | { kind: 'expire'; tableName: string; idle?: boolean }
  /**
   * Extend the lease of the holder's current acquisition; `active`: the holder showed activity
   * since the last renewal (its idle time starts again).
   */
  | {
      kind: 'renew';
      tableName: string;
      editor: string;
      token: string;
      leaseSeconds: number | null;
      active: boolean;
      /**
       * The holder's role and groups: a holder the table's policy no longer lets edit (or a
       * table now read-only) cannot renew. Absent only for trusted callers.
       */
      rights?: EditorRights;
    }
  /**
   * Become the editor in one step: a new acquisition for `editor`; FK locks stay as they are.
   * `anyHolder` (admins) takes anyone's lock, even of a frozen table. Others (the take-over
   * rule): their own lock from another tab or device unless `ownLock` is false; someone
   * else's once its holder has been idle `idleHolderSeconds` (null: never).
   */
  | {
      kind: 'takeOver';
      tableName: string;
      editor: string;
      leaseSeconds: number | null;
      anyHolder: boolean;
      /** Default true. */
      ownLock?: boolean;
      /** Default null. */
      idleHolderSeconds?: number | null;
      /**
       * The taker must be allowed to edit (see acquire): taking over an idle holder's lock, or
       * one's own for a fresh token (then a freeze does not stop it, as it does not stop a
       * renewal).
       */
      rights?: EditorRights;
    };

export type LockIntentKind = LockIntent['kind'];
