import { LockError } from './lockError';

/** A fencing token as clients send it back: a positive bigint in decimal. */
export function parseFencingToken(token: string): string {
  if (!/^[1-9]\d{0,18}$/.test(token)) {
    throw new LockError(
      'BAD_USER_INPUT',
      'token must be the fencing token the acquisition returned.',
    );
  }
  return token;
}
