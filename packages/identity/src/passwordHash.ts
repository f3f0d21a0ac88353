import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

// scrypt parameters (OWASP's minimum: N=2^17 costs 128 MiB; 2^15 with r=8 is ~32 MiB, ~50 ms).
const COST = 2 ** 15;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 64;
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, options: ScryptOptions, length: number) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, length, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** A salted scrypt hash, stored as `scrypt$N$r$p$salt$key` (base64url), so it can be re-tuned. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const options = { N: COST, r: BLOCK_SIZE, p: PARALLELISM, maxmem: MAX_MEMORY };
  const key = await derive(password, salt, options, KEY_LENGTH);
  return [
    'scrypt',
    COST,
    BLOCK_SIZE,
    PARALLELISM,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/** Whether `password` matches `stored`, compared in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  if (expected.length === 0) return false;
  // A corrupt stored hash (parameters scrypt rejects) matches no password.
  const actual = await derive(
    password,
    Buffer.from(salt, 'base64url'),
    { N: Number(n), r: Number(r), p: Number(p), maxmem: MAX_MEMORY },
    expected.length,
  ).catch(() => undefined);
  return actual !== undefined && timingSafeEqual(actual, expected);
}

/**
 * A hash of a password nobody has: verified against when the username is unknown, so that a
 * wrong username costs as much time as a wrong password and timing does not tell them apart.
 */
export const UNKNOWN_USER_HASH = await hashPassword(randomBytes(16).toString('hex'));
