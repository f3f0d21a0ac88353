import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { IdentityError } from './identityError';

export interface LoginThrottleOptions {
  /** Failures for one username from one address in a day before it is blocked. */
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

/** One login attempt, counted from before its password is checked until it ends. */
export interface LoginAttempt {
  /** The password was wrong: the attempt stays counted; the limit-th failure starts a block. */
  failed(): Promise<void>;
  /** Gives the attempt back unless it failed (the password was right, or never checked). */
  end(): Promise<void>;
}

export interface LoginThrottle {
  /**
   * Counts an attempt for the username/address pair and for the address before anything is
   * checked; TOO_MANY_REQUESTS when either has no attempt left (blocked, or its remaining
   * attempts are being checked right now).
   */
  reserve(username: string, ip: string): Promise<LoginAttempt>;
}

const DAY_SECONDS = 24 * 60 * 60;

/** One counter: a rate limiter's key, and how many of its attempts are being checked now. */
interface Counter {
  limiter: RateLimiterMemory;
  key: string;
  inFlight: Map<string, number>;
}

/**
 * Slows down password guessing. Every attempt takes one of a counter's points before the
 * password is checked (rate-limiter-flexible's `consume`), so that however many arrive in
 * parallel, no more than the limit are checked. A wrong password keeps its point; a right one
 * gives back its own point and no other (`reward`): the failures counted before or alongside
 * it stay counted, so a success cannot buy guesses more tries. The failure that reaches the
 * limit blocks the key for `blockSeconds`; after that it starts afresh. Kept in this process's
 * memory, so each API instance counts on its own.
 */
export function createLoginThrottle(options = DEFAULT_LOGIN_THROTTLE): LoginThrottle {
  const limiter = (keyPrefix: string, points: number) =>
    new RateLimiterMemory({
      keyPrefix,
      points,
      duration: DAY_SECONDS,
      blockDuration: options.blockSeconds,
    });
  const byUsernameAndIp = limiter('login_fail_user_ip', options.failuresPerUsernameAndIp);
  const byIp = limiter('login_fail_ip', options.failuresPerIpPerDay);
  const inFlightByUsernameAndIp = new Map<string, number>();
  const inFlightByIp = new Map<string, number>();

  const take = async (counter: Counter) => {
    await counter.limiter.consume(counter.key);
    counter.inFlight.set(counter.key, (counter.inFlight.get(counter.key) ?? 0) + 1);
  };
  const settle = (counter: Counter) => {
    const left = (counter.inFlight.get(counter.key) ?? 1) - 1;
    if (left > 0) counter.inFlight.set(counter.key, left);
    else counter.inFlight.delete(counter.key);
  };
  const giveBack = async (counter: Counter) => {
    settle(counter);
    await counter.limiter.reward(counter.key);
  };
  // Points still taken by attempts in flight are not failures (yet): only settled ones block.
  const countFailure = async (counter: Counter) => {
    settle(counter);
    const state = await counter.limiter.get(counter.key);
    const failures = (state?.consumedPoints ?? 0) - (counter.inFlight.get(counter.key) ?? 0);
    const alreadyBlocked = (state?.consumedPoints ?? 0) > counter.limiter.points;
    if (failures >= counter.limiter.points && !alreadyBlocked) {
      await counter.limiter.block(counter.key, options.blockSeconds);
    }
  };

  return {
    async reserve(username, ip) {
      // The address never contains `_`, so the last one separates the two.
      const counters: Counter[] = [
        { limiter: byUsernameAndIp, key: `${username}_${ip}`, inFlight: inFlightByUsernameAndIp },
        { limiter: byIp, key: ip, inFlight: inFlightByIp },
      ];
      const taken: Counter[] = [];
      for (const counter of counters) {
        try {
          await take(counter);
          taken.push(counter);
        } catch (refusal) {
          await Promise.all(taken.map(giveBack));
          throw refusal instanceof RateLimiterRes ? tooManyRequests(refusal) : refusal;
        }
      }
      let ended = false;
      const endWith = async (outcome: (counter: Counter) => Promise<void>) => {
        if (ended) return;
        ended = true;
        await Promise.all(taken.map(outcome));
      };
      return {
        failed: () => endWith(countFailure),
        end: () => endWith(giveBack),
      };
    },
  };
}

function tooManyRequests(refusal: RateLimiterRes): IdentityError {
  const retryAfterSeconds = Math.max(1, Math.round(refusal.msBeforeNext / 1000));
  return new IdentityError(
    'TOO_MANY_REQUESTS',
    `Too many failed logins; try again in ${retryAfterSeconds} s.`,
    { retryAfterSeconds },
  );
}
