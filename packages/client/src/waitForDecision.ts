import { requestOutcomeQuery, requestStepsSubscription } from './changeRequestOperations';
import type { RequestOutcomeFragment, RequestStepsSubscription } from './generated/graphql';
import { openLiveClient } from './liveClient';
import { TablelockError } from './TablelockError';
import type { TablelockApi } from './tablelockApi';

/** A change request as its decision left it: applied, rejected, sent back or withdrawn. */
export type ChangeRequestDecision = RequestOutcomeFragment;

export interface WaitForDecisionOptions {
  /** Stops waiting, rejecting with the signal's reason. */
  signal?: AbortSignal;
}

/** How long a read of the request is retried while the API cannot be reached. */
const READ_RETRY_MS = 30_000;

/**
 * Resolves once change request `id` is decided (or withdrawn), with its state, who decided, their
 * comment, and for its author the lock's token when the lock came back to them. It listens to
 * `changeRequestChanged` and reads the request at every connection, the first included: a
 * decision made while the connection was down, or before it listened, is not missed. It resolves
 * with a read, never with an event: the API answers reads of a request once they are durable.
 */
export async function waitForDecision(
  api: TablelockApi,
  id: string,
  options: WaitForDecisionOptions = {},
): Promise<ChangeRequestDecision> {
  const { signal } = options;
  signal?.throwIfAborted();
  const read = async () =>
    (
      await api.request(
        requestOutcomeQuery,
        { id },
        { retryForMs: api.retryFor(READ_RETRY_MS), signal },
      )
    ).changeRequest;
  const first = await read();
  if (!first) throw new TablelockError('NOT_FOUND', `No change request has the id ${id}.`);
  if (first.state !== 'pending') return first;
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      signal?.removeEventListener('abort', stopped);
      // A connection that failed to open rejects its dispose: nothing was left to close.
      Promise.resolve(client.dispose()).catch(() => {});
      settle();
    };
    const stopped = () => finish(() => reject(signal?.reason));
    const decided = (request: ChangeRequestDecision | null | undefined) => {
      if (request?.id === id && request.state !== 'pending') finish(() => resolve(request));
    };
    const client = openLiveClient(api, () => {
      // A read that fails is tried again at the next connection; the live step may come first.
      read().then(decided, () => {});
    });
    client.subscribe<RequestStepsSubscription>(
      { query: requestStepsSubscription.toString(), variables: { table: first.table } },
      {
        // An event is news, not the answer: the read gives the decision once a synchronous
        // standby has it, so that a failover cannot take back what this resolved with.
        next: ({ data }) => {
          const request = data?.changeRequestChanged;
          if (request?.id === id && request.state !== 'pending') read().then(decided, () => {});
        },
        // Refused (a revoked key): the reads at reconnection still tell.
        error: () => {},
        complete: () => {},
      },
    );
    signal?.addEventListener('abort', stopped, { once: true });
  });
}
