import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { errorCode } from '../../api/GraphqlRequestError';
import { graphqlRequest } from '../../api/graphqlRequest';
import { tablesOptions } from '../../tables/useTables';
import { type IdleDeadline, idleDeadline } from './idleDeadline';
import { LeaseConnection } from './LeaseConnection';
import {
  acquireTableLockMutation,
  releaseTableLockMutation,
  renewTableLockMutation,
  takeOverTableLockMutation,
} from './lockOperations';
import { pageLeaseSeconds } from './pageLease';

export interface TableLock {
  /** The lease each acquisition and renewal asks for (pageLeaseSeconds). */
  leaseSeconds: number;
  /**
   * Starts editing (the server locks the FK targets too): the fencing token. With `rows`, only
   * the rows whose row-lock column has one of those values (a row scope).
   */
  acquire(rows?: readonly string[]): Promise<string>;
  /**
   * Extends the lease, telling whether the user was `active` since the last renewal; LOCK_LOST
   * if the token is no longer the table's current one. Answers the idle deadline it sets.
   */
  renew(token: string, active: boolean): Promise<IdleDeadline | null>;
  /** Moves the user's own lock from another tab or device to this one: a new token. */
  takeOver(reason: string): Promise<string>;
  /** Gives the lock back; a lock that has already ended is fine. */
  release(token: string): Promise<void>;
  /** When the lease ends at the latest, and whether the API answered the last renewal. */
  connection: LeaseConnection;
}

// No answer from the API (or only a proxy's): the lease may run out before it is heard again.
const UNANSWERED = new Set(['NETWORK_ERROR', 'SERVICE_UNAVAILABLE']);

/** Taking, keeping and giving back the lock on one table, as its fencing token. */
export function useTableLock(table: string): TableLock {
  const queryClient = useQueryClient();
  return useMemo(() => {
    const leaseSeconds = pageLeaseSeconds(document);
    const connection = new LeaseConnection(leaseSeconds);
    const lockStatesChanged = () =>
      queryClient.invalidateQueries({ queryKey: tablesOptions.queryKey });
    return {
      leaseSeconds,
      connection,
      async acquire(rows) {
        const sentAt = Date.now();
        const { acquireTableLock: grant } = await graphqlRequest(acquireTableLockMutation, {
          table,
          leaseSeconds,
          rows: rows ? [...rows] : null,
        });
        connection.granted(sentAt);
        await lockStatesChanged();
        return grant.token;
      },
      async renew(token, active) {
        const sentAt = Date.now();
        try {
          const { renewTableLock: grant } = await graphqlRequest(renewTableLockMutation, {
            table,
            token,
            leaseSeconds,
            active,
          });
          connection.granted(sentAt);
          return idleDeadline(grant, leaseSeconds, Date.now());
        } catch (error) {
          if (UNANSWERED.has(errorCode(error) ?? '')) connection.unanswered();
          throw error;
        }
      },
      async takeOver(reason) {
        const sentAt = Date.now();
        const { takeOverTableLock: grant } = await graphqlRequest(takeOverTableLockMutation, {
          table,
          reason,
          leaseSeconds,
        });
        connection.granted(sentAt);
        await lockStatesChanged();
        return grant.token;
      },
      async release(token) {
        try {
          await graphqlRequest(releaseTableLockMutation, { table, token });
        } catch (error) {
          if (errorCode(error) !== 'LOCK_LOST') throw error;
        } finally {
          await lockStatesChanged();
        }
      },
    };
  }, [table, queryClient]);
}
