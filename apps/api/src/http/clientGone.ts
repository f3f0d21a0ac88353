import type { ApiContext } from '../context';

/**
 * Fires when the client of an HTTP request goes away before it was answered (closed the
 * connection): work done only for it, like waiting in the lock queue, stops at once.
 */
export function clientGone(http: ApiContext['http']): AbortSignal | undefined {
  if (!http) return undefined;
  const controller = new AbortController();
  http.response.once('close', () => {
    if (!http.response.writableFinished) controller.abort(new Error('The client went away.'));
  });
  return controller.signal;
}
