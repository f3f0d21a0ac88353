import type { Writable } from 'node:stream';

const CLIENT_GONE = 'The client closed the connection.';

/**
 * Resolves once `out` takes writes again (at once if it does now); rejects if it is closed or
 * closes first: the client went away mid-download, and writes would go nowhere.
 */
export function drained(out: Writable): Promise<void> {
  if (out.destroyed) return Promise.reject(new Error(CLIENT_GONE));
  if (!out.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      out.off('close', onClose);
      resolve();
    };
    const onClose = () => {
      out.off('drain', onDrain);
      reject(new Error(CLIENT_GONE));
    };
    out.once('drain', onDrain);
    out.once('close', onClose);
  });
}
