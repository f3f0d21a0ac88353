import type { Writable } from 'node:stream';

const CLIENT_GONE = 'The client closed the connection.';

/** A download's reader took nothing for too long: the connection was closed. */
export class ReaderStalled extends Error {
  constructor(readonly stallMs: number) {
    super(`The client read nothing for ${stallMs} ms.`);
  }
}

/**
 * Resolves once `out` takes writes again (at once if it does now); rejects if it is closed or
 * closes first: the client went away mid-download, and writes would go nowhere. A reader that
 * takes nothing for `stallMs` would hold the download's slot and transaction for as long as it
 * likes: `out` is closed then, with ReaderStalled.
 */
export function drained(out: Writable, stallMs: number): Promise<void> {
  if (out.destroyed) return Promise.reject(new Error(CLIENT_GONE));
  if (!out.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const settle = (outcome: () => void) => {
      clearTimeout(stalled);
      out.off('drain', onDrain);
      out.off('close', onClose);
      outcome();
    };
    const onDrain = () => settle(resolve);
    const onClose = () => settle(() => reject(new Error(CLIENT_GONE)));
    const stalled = setTimeout(
      () =>
        settle(() => {
          reject(new ReaderStalled(stallMs));
          out.destroy();
        }),
      stallMs,
    );
    out.once('drain', onDrain);
    out.once('close', onClose);
  });
}
