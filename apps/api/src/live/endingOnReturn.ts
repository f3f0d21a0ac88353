/**
 * An async generator, as an iterator that ends as soon as its consumer stops: `return()` fires
 * the generator's signal, so that it stops even while it awaits (a plain generator's return()
 * waits for its next yield), then runs `cleanUp` once.
 */
export function endingOnReturn<T>(
  start: (signal: AbortSignal) => AsyncGenerator<T>,
  cleanUp: () => Promise<unknown>,
): AsyncIterableIterator<T> {
  const controller = new AbortController();
  const generator = start(controller.signal);
  let cleaned: Promise<unknown> | undefined;
  const end = () => {
    cleaned ??= cleanUp();
    return cleaned;
  };
  return {
    async next() {
      try {
        const next = await generator.next();
        if (next.done) await end();
        return next;
      } catch (error) {
        await end();
        throw error;
      }
    },
    async return() {
      controller.abort();
      try {
        return await generator.return(undefined);
      } finally {
        await end();
      }
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
