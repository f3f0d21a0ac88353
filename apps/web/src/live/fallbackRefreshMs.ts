import type { LiveStatus } from './liveContext';

// Without the live connection, pages poll: slowly, since it is only the fallback.
const FALLBACK_REFRESH_MS = 30_000;

/** A `refetchInterval`: none while changes arrive live, a slow poll while they do not. */
export function fallbackRefreshMs(status: LiveStatus): number | false {
  return status === 'live' ? false : FALLBACK_REFRESH_MS;
}
