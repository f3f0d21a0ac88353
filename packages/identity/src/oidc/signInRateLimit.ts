import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { IdentityError } from '../identityError';

export interface SignInRateLimitOptions {
  /** Requests from one address to each sign-in route (start, callback) in a minute. */
  requestsPerIpPerMinute: number;
  /**
   * Callbacks refused before any sign-in under way matched them (no state, a stale one),
   * recorded in the security history per minute over all addresses; the rest are only counted
   * in the log. They cost an attacker nothing, so they must not cost the database a row each.
   */
  refusalsRecordedPerMinute: number;
  /** Sign-ins under way (started, not finished, not expired) at most, over all API processes. */
  pendingSignIns: number;
}

export const DEFAULT_SIGN_IN_RATE_LIMIT: SignInRateLimitOptions = {
  requestsPerIpPerMinute: 20,
  refusalsRecordedPerMinute: 60,
  pendingSignIns: 1000,
};

export type SignInRoute = 'start' | 'callback';

export interface SignInRateLimit {
  options: SignInRateLimitOptions;
  /** TOO_MANY_REQUESTS (with `retryAfterSeconds`) once `ip` has used its minute's requests. */
  admit(route: SignInRoute, ip: string): Promise<void>;
  /**
   * Whether one more unmatched refused callback may be written to the security history this
   * minute. `firstSkipped` is true only for the first one that may not, to log the flood once.
   */
  mayRecordRefusal(): Promise<{ record: boolean; firstSkipped: boolean }>;
}

const MINUTE_SECONDS = 60;
const ALL_ADDRESSES = 'all';

/**
 * Fixed one-minute windows from rate-limiter-flexible, the library the login throttle uses,
 * kept in this process's memory: each API instance counts on its own, so N instances admit N
 * times as many. The bound on sign-ins under way is kept in the database and holds for all.
 */
export function createSignInRateLimit(options = DEFAULT_SIGN_IN_RATE_LIMIT): SignInRateLimit {
  const perRoute = new Map<SignInRoute, RateLimiterMemory>(
    (['start', 'callback'] as const).map((route) => [
      route,
      new RateLimiterMemory({
        keyPrefix: `oidc_${route}`,
        points: options.requestsPerIpPerMinute,
        duration: MINUTE_SECONDS,
      }),
    ]),
  );
  const refusals = new RateLimiterMemory({
    keyPrefix: 'oidc_refusals_recorded',
    points: options.refusalsRecordedPerMinute,
    duration: MINUTE_SECONDS,
  });
  return {
    options,
    async admit(route, ip) {
      try {
        await perRoute.get(route)?.consume(ip);
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        throw tooManySignInRequests(Math.ceil(refusal.msBeforeNext / 1000));
      }
    },
    async mayRecordRefusal() {
      try {
        await refusals.consume(ALL_ADDRESSES);
        return { record: true, firstSkipped: false };
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return { record: false, firstSkipped: refusal.consumedPoints === refusals.points + 1 };
      }
    },
  };
}

export function tooManySignInRequests(retryAfterSeconds: number): IdentityError {
  const seconds = Math.max(1, retryAfterSeconds);
  return new IdentityError(
    'TOO_MANY_REQUESTS',
    `Too many sign-in requests; try again in ${seconds} s.`,
    { retryAfterSeconds: seconds },
  );
}
