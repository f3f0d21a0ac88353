import type { PrismaClient } from '@tablelock/db';
import { IdentityError } from './identityError';
import { checkLoginInputSize } from './loginInputSize';
import type { LoginThrottle } from './loginThrottle';
import { UNKNOWN_USER_HASH, verifyPassword } from './passwordHash';
import type { Principal } from './principal';
import { type SecurityLogger, withSecurityEvents } from './securityEvent';
import { createSession } from './sessions';

export interface LogInInput {
  username: string;
  password: string;
  /** The caller's address, for throttling and the security audit. */
  ip: string;
  sessionTtlSeconds: number;
}

/**
 * Checks a username and password and starts a session. Every failure is the same error after
 * the same work (an unknown user's password is checked against a dummy hash), so neither the
 * message nor the timing tells whether the username exists. Both outcomes are security events;
 * a success's is written with its session.
 */
export async function logIn(
  prisma: PrismaClient,
  throttle: LoginThrottle,
  input: LogInInput,
  logger: SecurityLogger,
): Promise<{ principal: Principal; token: string }> {
  checkLoginInputSize(input.username, input.password);
  const attempt = await throttle.reserve(input.username, input.ip);
  try {
    const user = await prisma.user.findUnique({ where: { username: input.username } });
    const passwordMatches = await verifyPassword(
      input.password,
      user?.passwordHash ?? UNKNOWN_USER_HASH,
    );
    if (!user || !passwordMatches || user.disabled) {
      await attempt.failed();
      const loginFailure = !user
        ? 'unknown_user'
        : !passwordMatches
          ? 'wrong_password'
          : 'user_disabled';
      await withSecurityEvents(prisma, logger, (_tx, record) =>
        record({
          action: 'login_failed',
          actor: null,
          subject: input.username,
          ip: input.ip,
          details: { loginFailure },
        }),
      );
      throw new IdentityError('UNAUTHENTICATED', 'Invalid username or password.');
    }
    const token = await withSecurityEvents(prisma, logger, async (tx, record) => {
      const created = await createSession(tx, user.id, input.sessionTtlSeconds);
      await record({ action: 'login', actor: user.username, subject: user.username, ip: input.ip });
      return created;
    });
    return {
      principal: {
        kind: 'user',
        id: user.id,
        name: user.username,
        role: user.role,
        groups: user.groups,
      },
      token,
    };
  } finally {
    await attempt.end();
  }
}
