import type { Client } from 'graphql-ws';
import { createContext } from 'react';
import type { LockChangedSubscription, LockEventFieldsFragment } from '../generated/graphql';

/** One lock change or save, as the API announces it (and records it in the audit history). */
export type LockEvent = LockEventFieldsFragment;

/** An announced event with the new lock state of each table it wrote (see patchTables). */
export type LiveLockEvent = LockChangedSubscription['lockChanged'];

/**
 * The live connection: `connecting` until it first answers, `live` while it is up, `offline`
 * while it is down (and retrying). Only `live` means changes arrive as they happen.
 */
export type LiveStatus = 'connecting' | 'live' | 'offline';

export type LockEventListener = (event: LockEvent) => void;

export interface LiveUpdates {
  status: LiveStatus;
  /**
   * When the connection now up was made (epoch ms), null while none is: what was read before it
   * may have missed news (see rowsReadBefore).
   */
  since: number | null;
  /** Calls `listener` with every event from now on; returns the unsubscribe. */
  listen(listener: LockEventListener): () => void;
  /** The connection's client, for other subscriptions on the same socket (null before it exists). */
  client: Client | null;
}

// Outside the provider (the login page) nothing is live, and nothing listens.
export const LiveUpdatesContext = createContext<LiveUpdates>({
  status: 'offline',
  since: null,
  listen: () => () => {},
  client: null,
});
