import { useContext, useEffect, useEffectEvent, useReducer } from 'react';
import { type GraphqlErrorEntry, GraphqlRequestError } from '../api/GraphqlRequestError';
import type { WaitForTableSubscription } from '../generated/graphql';
import { LiveUpdatesContext } from '../live/liveContext';
import { describeError } from '../ui/describeError';
import { useNotify } from '../ui/Notices';
import { waitForTableSubscription } from './queueOperations';
import { inLine, NOT_IN_LINE, type QueueWait, reduceQueueWait } from './queueWait';
import { askToNotify } from './turnNotification';

export interface TableQueue {
  wait: QueueWait;
  /** Joins the end of the line (and asks, once, whether the browser may notify the user). */
  join(): void;
  /** Leaves the line, or forgets that the turn ran out. */
  leave(): void;
}

/**
 * The user's place in the line for `table`, held by a `waitForTable` subscription on the app's
 * live connection for as long as they are in it. The subscription ends when they leave and when
 * this page goes (unmount, a closed tab): the API then takes them out of the line at once, so
 * nobody waits behind someone who left.
 */
export function useWaitForTable(table: string): TableQueue {
  const notify = useNotify();
  const { client } = useContext(LiveUpdatesContext);
  const [wait, dispatch] = useReducer(reduceQueueWait, NOT_IN_LINE);
  const active = inLine(wait);

  const failed = useEffectEvent((error: GraphqlRequestError) => {
    notify('error', (t) => t('queue.joinFailed', { reason: describeError(error, t) }));
  });

  useEffect(() => {
    if (!active || !client) return;
    // The client calls `complete` for a subscription it was told to end too: a later join must
    // not hear the end of an earlier one.
    let current = true;
    const unsubscribe = client.subscribe<WaitForTableSubscription>(
      { query: waitForTableSubscription.toString(), variables: { table } },
      {
        next: ({ data, errors }) => {
          if (!current) return;
          if (data) dispatch({ type: 'place', place: data.waitForTable });
          // A refusal (not an editor, no such table) is the subscription's only answer.
          else failed(new GraphqlRequestError(asErrorEntries(errors), 'UNKNOWN'));
        },
        error: (error) => {
          if (!current) return;
          // GraphQL errors (the request itself was refused), else the connection gave up.
          failed(
            Array.isArray(error)
              ? new GraphqlRequestError(asErrorEntries(error), 'UNKNOWN')
              : new GraphqlRequestError([], 'NETWORK_ERROR'),
          );
          dispatch({ type: 'ended' });
        },
        complete: () => {
          if (current) dispatch({ type: 'ended' });
        },
      },
    );
    return () => {
      current = false;
      unsubscribe();
    };
  }, [active, client, table]);

  return {
    wait,
    join: () => {
      askToNotify();
      dispatch({ type: 'join' });
    },
    leave: () => dispatch({ type: 'leave' }),
  };
}

/** The errors of a graphql-ws message, which are the API's own (its `extensions.code`s). */
function asErrorEntries(errors: readonly unknown[] | undefined): readonly GraphqlErrorEntry[] {
  return (errors ?? []) as readonly GraphqlErrorEntry[];
}
