import { z } from 'zod';
import { IdentityError } from './identityError';

/**
 * Names the histories use for actors that are not principals: no user or key may take them, so
 * that nobody's actions pass for the lease sweeper's, the command line's or the OpenID
 * provider's (which gives roles at sign-in).
 */
const RESERVED_NAMES = ['system', 'cli', 'bench', 'oidc'];

/**
 * Usernames and API key names: short, lower-case, safe to show and to log. `@` and `+` let an
 * e-mail address be the name of a user who signs in through the OpenID provider.
 */
const principalName = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9._@+-]{0,62}$/,
    'lower-case letters, digits and . _ @ + -, starting with a letter or digit; 1–63',
  )
  .refine((name) => !RESERVED_NAMES.includes(name), {
    message: `${RESERVED_NAMES.join(', ')} are reserved`,
  });

const password = z.string().min(8, 'at least 8 characters').max(200);

function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new IdentityError('BAD_USER_INPUT', `${what}: ${result.error.issues[0]?.message}`);
  }
  return result.data;
}

export const parsePrincipalName = (value: string, what: string) =>
  parseOrThrow(principalName, value, what);
export const parsePassword = (value: string) => parseOrThrow(password, value, 'password');
