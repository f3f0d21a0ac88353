import { IdentityError } from './identityError';

const MAX_USERNAME_CHARACTERS = 64;
const MAX_PASSWORD_BYTES = 1024;

/**
 * Refuses a username or password too long to be real before any work is spent on it: no
 * password hash is computed and no throttle key is kept for it.
 */
export function checkLoginInputSize(username: string, password: string): void {
  if ([...username].length > MAX_USERNAME_CHARACTERS) {
    throw new IdentityError(
      'BAD_USER_INPUT',
      `A username has at most ${MAX_USERNAME_CHARACTERS} characters.`,
    );
  }
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
    throw new IdentityError(
      'BAD_USER_INPUT',
      `A password has at most ${MAX_PASSWORD_BYTES} bytes.`,
    );
  }
}
