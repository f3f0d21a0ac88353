import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRefreshBatch } from '../src/api/createRefreshBatch';

describe('createRefreshBatch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('invalidates each stale key once per burst, within the delay of the first', () => {
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue();
    const batch = createRefreshBatch(queryClient, 150);
    batch.add([['tables'], ['lockEvents']]);
    vi.advanceTimersByTime(100);
    batch.add([['tables'], ['rows', 'currencies']]);
    expect(invalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(50);
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([
      ['tables'],
      ['lockEvents'],
      ['rows', 'currencies'],
    ]);
    batch.add([['tables']]);
    vi.advanceTimersByTime(150);
    expect(invalidate).toHaveBeenCalledTimes(4);
  });

  it('forgets what is pending when cancelled', () => {
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue();
    const batch = createRefreshBatch(queryClient, 150);
    batch.add([['tables']]);
    batch.cancel();
    vi.advanceTimersByTime(1000);
    expect(invalidate).not.toHaveBeenCalled();
  });
});
