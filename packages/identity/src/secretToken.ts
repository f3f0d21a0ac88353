import { createHash, randomBytes } from 'node:crypto';

/** A random bearer secret (256 bits), URL-safe, with a prefix that says what it is. */
export function newSecretToken(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** What the database keeps of a secret: high-entropy secrets need no slow hash. */
export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
