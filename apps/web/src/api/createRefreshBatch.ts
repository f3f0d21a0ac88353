import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Invalidates queries at most once per `delayMs`: a batch job may change hundreds of locks in
 * a second, and every open page would otherwise refetch for each one. The first stale key of
 * a burst starts the clock, so nothing waits longer than `delayMs`.
 */
export function createRefreshBatch(queryClient: QueryClient, delayMs: number) {
  const pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const keys = [...pending.values()];
    pending.clear();
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  };
  return {
    add(keys: readonly QueryKey[]) {
      for (const key of keys) pending.set(JSON.stringify(key), key);
      timer ??= setTimeout(flush, delayMs);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      pending.clear();
    },
  };
}
