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
  /**
   * False when people sign in through the OpenID provider only: then only break-glass admins
   * (made on the command line) may log in with a password.
   */
  passwordLogin: boolean;
}

/**
 * Checks a username and password and starts a session. Every failure is the same error after
 * the same work (an unknown user's password is checked against a dummy hash), so neither the
 * message nor the timing tells whether the username exists. Both outcomes are security events;
 * a success's is written with its session. With password login turned off, every failure is
 * PASSWORD_LOGIN_DISABLED, so the answer does not tell break-glass admins from other users.
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
    const passwordLoginClosed = !input.passwordLogin && !user?.breakGlass;
    if (!user || !passwordMatches || user.disabled || passwordLoginClosed) {
      await attempt.failed();
      const loginFailure = !user
        ? 'unknown_user'
        : !passwordMatches
          ? 'wrong_password'
          : user.disabled
            ? 'user_disabled'
            : 'password_login_disabled';
      await withSecurityEvents(prisma, logger, (_tx, record) =>
        record({
          action: 'login_failed',
          actor: null,
          subject: input.username,
          ip: input.ip,
          details: { loginFailure, signInMethod: 'password' },
        }),
      );
      if (!input.passwordLogin) {
        throw new IdentityError(
          'PASSWORD_LOGIN_DISABLED',
          'Password login is turned off: sign in through your company account.',
        );
      }
      throw new IdentityError('UNAUTHENTICATED', 'Invalid username or password.');
    }
    const token = await withSecurityEvents(prisma, logger, async (tx, record) => {
      const created = await createSession(tx, user.id, input.sessionTtlSeconds);
      await record({
        action: 'login',
        actor: user.username,
        subject: user.username,
        ip: input.ip,
        details: { signInMethod: 'password' },
      });
      return created;
    });
    return {
      principal: {
        kind: 'user',
        id: user.id,
        name: user.username,
        role: user.role,
        groups: user.groups,
        roleSource: user.roleSource,
      },
      token,
    };
  } finally {
    await attempt.end();
  }
}
