import { RateLimiterMemory } from 'rate-limiter-flexible';
import { IdentityError } from './identityError';

export interface LoginThrottleOptions {
  /** Consecutive failures for one username from one address before it is blocked. */
  failuresPerUsernameAndIp: number;
  /** Failures from one address in a day, over all usernames, before it is blocked. */
  failuresPerIpPerDay: number;
  /** How long a block lasts. */
  blockSeconds: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleOptions = {
  failuresPerUsernameAndIp: 5,
  failuresPerIpPerDay: 100,
  blockSeconds: 15 * 60,
};

export interface LoginThrottle {
  /** Throws TOO_MANY_REQUESTS while the username/address pair or the address is blocked. */
  check(username: string, ip: string): Promise<void>;
  recordFailure(username: string, ip: string): Promise<void>;
  recordSuccess(username: string, ip: string): Promise<void>;
}

/**
 * Slows down password guessing (rate-limiter-flexible's login-protection pattern): counts
 * consecutive failures per username and address, and all failures per address. Kept in this
 * process's memory, so each API instance counts on its own.
 */
export function createLoginThrottle(options = DEFAULT_LOGIN_THROTTLE): LoginThrottle {
  // rate-limiter-flexible blocks once a key goes over `points`: with limit - 1 points, the
  // limit-th failure starts the block, and check() refuses from then on.
  const byUsernameAndIp = new RateLimiterMemory({
    keyPrefix: 'login_fail_user_ip',
    points: options.failuresPerUsernameAndIp - 1,
    duration: 24 * 60 * 60,
    blockDuration: options.blockSeconds,
  });
  const byIp = new RateLimiterMemory({
    keyPrefix: 'login_fail_ip',
    points: options.failuresPerIpPerDay - 1,
    duration: 24 * 60 * 60,
    blockDuration: options.blockSeconds,
  });
  const pairKey = (username: string, ip: string) => `${username}_${ip}`;
  return {
    async check(username, ip) {
      const [pair, address] = await Promise.all([
        byUsernameAndIp.get(pairKey(username, ip)),
        byIp.get(ip),
      ]);
      const blocked = [
        [pair, options.failuresPerUsernameAndIp],
        [address, options.failuresPerIpPerDay],
      ] as const;
      for (const [state, limit] of blocked) {
        if (state && state.consumedPoints >= limit) {
          const retryAfterSeconds = Math.max(1, Math.round(state.msBeforeNext / 1000));
          throw new IdentityError(
            'TOO_MANY_REQUESTS',
            `Too many failed logins; try again in ${retryAfterSeconds} s.`,
            { retryAfterSeconds },
          );
        }
      }
    },
    async recordFailure(username, ip) {
      // consume() rejects once the limit is passed; the block it sets is what check() reads.
      await Promise.allSettled([byUsernameAndIp.consume(pairKey(username, ip)), byIp.consume(ip)]);
    },
    async recordSuccess(username, ip) {
      await byUsernameAndIp.delete(pairKey(username, ip));
    },
  };
}
