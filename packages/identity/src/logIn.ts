import type { PrismaClient } from '@tablelock/db';
import { IdentityError } from './identityError';
import type { LoginThrottle } from './loginThrottle';
import { UNKNOWN_USER_HASH, verifyPassword } from './passwordHash';
import type { Principal } from './principal';
import { createSession } from './sessions';

export interface LogInInput {
  username: string;
  password: string;
  /** The caller's address, for throttling. */
  ip: string;
  sessionTtlSeconds: number;
}

/**
 * Checks a username and password and starts a session. Every failure is the same error after
 * the same work (an unknown user's password is checked against a dummy hash), so neither the
 * message nor the timing tells whether the username exists.
 */
export async function logIn(
  prisma: PrismaClient,
  throttle: LoginThrottle,
  input: LogInInput,
): Promise<{ principal: Principal; token: string }> {
  await throttle.check(input.username, input.ip);
  const user = await prisma.user.findUnique({ where: { username: input.username } });
  const passwordMatches = await verifyPassword(
    input.password,
    user?.passwordHash ?? UNKNOWN_USER_HASH,
  );
  if (!user || user.disabled || !passwordMatches) {
    await throttle.recordFailure(input.username, input.ip);
    throw new IdentityError('UNAUTHENTICATED', 'Invalid username or password.');
  }
  await throttle.recordSuccess(input.username, input.ip);
  const token = await createSession(prisma, user.id, input.sessionTtlSeconds);
  return { principal: { kind: 'user', id: user.id, name: user.username, role: user.role }, token };
}
