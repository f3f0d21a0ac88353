import type { InvalidateQueryFilters } from '@tanstack/react-query';

/** The key every table's rows queries share: what a reconnection makes out of date. */
export const ROWS_KEY = ['rows'] as const;

/**
 * The grids that read their rows before `time` (their revisions: rowsRevisionOptions): all
 * that a live connection made at `time` may have missed news of. A grid that started reading
 * since then was told of every save since.
 */
export const rowsReadBefore = (time: number): InvalidateQueryFilters => ({
  queryKey: ROWS_KEY,
  predicate: ({ state }) => typeof state.data === 'number' && state.data < time,
});
