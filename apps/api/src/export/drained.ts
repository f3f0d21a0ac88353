import type { Writable } from 'node:stream';

/**
 * Resolves once `out` takes writes again (at once if it does now); rejects if it closes first,
 * when the client went away mid-download.
 */
export function drained(out: Writable): Promise<void> {
  if (!out.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      out.off('close', onClose);
      resolve();
    };
    const onClose = () => {
      out.off('drain', onDrain);
      reject(new Error('The client closed the connection.'));
    };
    out.once('drain', onDrain);
    out.once('close', onClose);
  });
}
